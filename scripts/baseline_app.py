"""The benchmark's baseline: a bare Flask app answering a poll with 204, nothing else.

`make benchmark` serves it with the same waitress settings as the companion, so that the poll
throughput of the companion is reported as a ratio of what Flask itself can do on this machine.
"""

from flask import Flask

app = Flask(__name__)


@app.get("/t/<code>/live")
def live(code: str):
    return "", 204
