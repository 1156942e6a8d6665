"""What people take home from a table, built from plain data (the record's plays, a table's
events), with no Flask and no request: the BG Stats file and link (bgstats), the spreadsheet
(spreadsheet), the text to paste (text) and everything of a table as JSON (table_json). The web
layer (companion.web.after, companion.web.records) only chooses which plays and answers."""
