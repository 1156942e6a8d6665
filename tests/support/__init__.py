"""What the tests and the scripts (scripts/) share: driving the app over HTTP (forms) and starting
Chromium (browser). Test files import these through tests/helpers.py."""
