"""The pages' own text (the templates' indentation and blank lines) goes out with each run of white
space that holds a line break made one line break (assets.CollapseWhitespace)."""

from __future__ import annotations


def test_template_text_loses_its_indentation_and_expressions_keep_theirs(app):
    with app.app_context():
        template = app.jinja_env.from_string(
            "<ul>\n    <li>{{ a }}</li>\n\n\n    <li>b c</li>\n</ul>\n<p>x  y</p>"
        )
        assert template.render(a="one\n    two") == (
            "<ul>\n<li>one\n    two</li>\n<li>b c</li>\n</ul>\n<p>x  y</p>"
        )


def test_a_trans_block_keeps_its_text(app):
    with app.test_request_context("/"):
        template = app.jinja_env.from_string("{% trans %}a\n    b{% endtrans %}\n    <p>")
        assert template.render() == "a\n    b\n<p>"


def test_a_table_page_has_no_indented_line_of_its_own(client):
    from tests.support.forms import start_table

    code = start_table(client)
    page = client.get(f"/t/{code}/").text
    assert "\n <" not in page and "\n<main" in page
