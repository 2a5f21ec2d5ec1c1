"""A real Datasette (PyPI `datasette`, server-rendered) on a small SQLite database, served by uvicorn
in a thread on 127.0.0.1, port 0, for the shipped adapter adapters/datasette.js."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from pling_browser.server.threaded import UvicornThread

BOOKS = [(1, "Dune", "Frank Herbert", 1965), (2, "Emma", "Jane Austen", 1815), (3, "Kindred", "Octavia E. Butler", 1979)]


class DatasetteApp:
    def __init__(self) -> None:
        from datasette.app import Datasette

        self.folder = Path(tempfile.mkdtemp(prefix="pling-datasette-"))
        path = self.folder / "library.db"
        db = sqlite3.connect(path)
        db.execute("create table books (id integer primary key, title text, author text, year integer)")
        db.executemany("insert into books values (?, ?, ?, ?)", BOOKS)
        db.commit()
        db.close()
        app = Datasette([str(path)]).app()
        self.served = UvicornThread(app, name="Datasette", lifespan="off")
        self.port = self.served.port

    def start(self) -> DatasetteApp:
        self.served.start()
        return self

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.served.stop(10)
