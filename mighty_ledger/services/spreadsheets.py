"""A spreadsheet file as rows of text: CSV in UTF-8 (with or without the BOM Excel adds) or in
CP949/EUC-KR (what Korean Excel writes), or an Excel workbook (its first sheet, through openpyxl).

What the rows mean is scoring/sheets.py's; this module only reads files, within the limits below.
Each limit is checked before the work it guards: the file's size before it is read, a workbook's
unpacked size, cells and columns from its archive before openpyxl parses anything, the rows as
they are read. What a worker holds is then bounded whatever a file claims to be (a 2 MB workbook
whose sheet unpacks to 780 MB grew a worker by 845 MB before).
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scoring.words import N_, Words

# The limits, stated in docs/table.md and docs/api.md, set by what a worker does well inside
# gunicorn's 30 s on this 2-core machine (make bench, benchmarks/sheet_import.py): the largest file
# within them, 10,000 rows of hands all different, is previewed in about 6 s of CPU and imported in
# about 9 s, the worker growing by some 100 MB; 300,000 workbook cells are parsed in about 4 s.
# 20,000 rows took 11 s and 17 s, 500,000 cells 7.5 s. 10,000 rows is four years of weekly evenings
# of fifty hands; a longer history comes in a file per year (an evening already in the group is
# named and left out, so files may overlap).
MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 10_000
MAX_CELLS = 300_000
MAX_COLUMNS = 200
# a workbook's parts as they unpack; its shared strings are held whole while the sheet is read
MAX_UNPACKED_BYTES = 20 * 1024 * 1024
XLSX_MAGIC = b"PK\x03\x04"

# the codes of the refusals (the API's error codes): a file too large is 413, the other limits 400;
# a file that is no spreadsheet at all is a problem of the preview, at line 1
TOO_LARGE, TOO_MANY_ROWS, TOO_MANY_CELLS, TOO_MANY_COLUMNS, WORKBOOK_TOO_LARGE = (
    "too_large", "too_many_rows", "too_many_cells", "too_many_columns", "workbook_too_large")
UNREADABLE = "unreadable"
LIMITS = (TOO_LARGE, TOO_MANY_ROWS, TOO_MANY_CELLS, TOO_MANY_COLUMNS, WORKBOOK_TOO_LARGE)


@dataclass(frozen=True)
class Refusal:
    code: str
    message: Words

    @property
    def over_a_limit(self) -> bool:
        return self.code in LIMITS


@dataclass(frozen=True)
class SheetFile:
    rows: list[list[str]]  # the rows with something in them
    lines: list[int]  # each row's line as the spreadsheet numbers it (empty rows are left out)
    file_hash: str  # SHA-256 of the bytes as sent: the same file brought in twice is known by it
    refusal: Refusal | None = None  # why the file cannot be read at all


def too_large() -> Refusal:
    return Refusal(TOO_LARGE, Words(N_("The file is larger than {limit} MB: send one of at most {limit} MB."),
                                    limit=MAX_BYTES // 2**20))


def _too_many_rows() -> Refusal:
    return Refusal(TOO_MANY_ROWS, Words(N_("The file has more than {limit} rows: split it (one file per year, "
                                           "say) and import each."), limit=f"{MAX_ROWS:,}"))


def _too_many_cells() -> Refusal:
    return Refusal(TOO_MANY_CELLS, Words(N_("The file has more than {limit} cells: keep only the hands, or "
                                            "split it and import each part."), limit=f"{MAX_CELLS:,}"))


def _too_many_columns() -> Refusal:
    return Refusal(TOO_MANY_COLUMNS, Words(N_("The sheet has cells in more than {limit} columns: keep only "
                                              "the columns of the hands."), limit=MAX_COLUMNS))


def _workbook_too_large() -> Refusal:
    return Refusal(WORKBOOK_TOO_LARGE, Words(N_("This workbook unpacks to more than {limit} MB: save only the "
                                                "sheet of hands, as .xlsx or .csv."),
                                             limit=MAX_UNPACKED_BYTES // 2**20))


def _unreadable(template: str) -> Refusal:
    return Refusal(UNREADABLE, Words(template))


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _filled(cells: Iterable[object]) -> list[str]:
    """A row's cells as text, without the empty ones at its end."""
    row = [_cell_text(value) for value in cells]
    while row and not row[-1].strip():
        row.pop()
    return row


def _kept_rows(rows: Iterator[list[str]]) -> tuple[list[list[str]], list[int]] | Refusal:
    """The rows with something in them and their lines as the spreadsheet numbers them, until a
    limit is passed: what the rest holds is never kept."""
    kept: list[list[str]] = []
    lines: list[int] = []
    cells = 0
    for line, row in enumerate(rows, start=1):
        if not any(cell.strip() for cell in row):
            continue
        cells += len(row)
        if len(row) > MAX_COLUMNS:
            return _too_many_columns()
        if cells > MAX_CELLS:
            return _too_many_cells()
        if len(kept) == MAX_ROWS:
            return _too_many_rows()
        kept.append(row)
        lines.append(line)
    return kept, lines


# a cell of the sheet's XML, with or without a namespace prefix, and the column its reference names
_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
_COLUMN = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c\s[^>]*?\br=\"([A-Z]{1,3})[0-9]")
_CHUNK = 1024 * 1024


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _archive_refusal(archive: zipfile.ZipFile) -> Refusal | None:
    """The workbook's size, cells and columns read from its archive before anything parses it:
    the sizes its parts declare (zipfile never unpacks more), then the cells of its sheets counted
    in their XML as it unpacks, a chunk at a time (openpyxl would build every row a far cell implies)."""
    if sum(part.file_size for part in archive.infolist()) > MAX_UNPACKED_BYTES:
        return _workbook_too_large()
    cells, widest = 0, 0
    for part in archive.infolist():
        if not (part.filename.startswith("xl/worksheets/") and part.filename.endswith(".xml")):
            continue
        tail = b""
        with archive.open(part) as sheet:
            while chunk := sheet.read(_CHUNK):
                text = tail + chunk
                # a tag cut by the chunk's end is counted with the next one
                cut = text.rfind(b"<")
                whole, tail = (text[:cut], text[cut:]) if cut > len(text) - 256 else (text, b"")
                cells += len(_CELL.findall(whole))
                widest = max([widest, *(_column_number(column) for column in _COLUMN.findall(whole))])
                if cells > MAX_CELLS:
                    return _too_many_cells()
                if widest > MAX_COLUMNS:
                    return _too_many_columns()
    return None


def _workbook_rows(content: bytes) -> tuple[list[list[str]], list[int]] | Refusal:
    from openpyxl import load_workbook

    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        refusal = _archive_refusal(archive)
    if refusal is not None:
        return refusal
    workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        sheet = workbook.worksheets[0]
        # the dimension a file declares may claim a million rows: only the cells it holds count
        sheet.reset_dimensions()
        return _kept_rows(_filled(row) for row in sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True))
    finally:
        workbook.close()


def _text_of(content: bytes) -> str | None:
    # utf-8-sig reads both: the BOM Excel writes is dropped, a file without one is read as is
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def _csv_rows(text: str) -> tuple[list[list[str]], list[int]] | Refusal:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return _kept_rows(_filled(row) for row in csv.reader(io.StringIO(text, newline=""), dialect))
    except csv.Error:
        return _unreadable(N_("This file cannot be read as CSV (a quote is left open, or a cell is "
                              "longer than any hand): save it again as CSV or .xlsx."))


def sheet_file_hash(content: bytes) -> str:
    """What a file is known by: the same bytes brought in twice are the same file."""
    return hashlib.sha256(content).hexdigest()


def sheet_file(content: bytes) -> SheetFile:
    """The rows of a CSV or XLSX file with something in them, every cell as text; a refusal when
    it is neither, or when it passes a limit."""
    file_hash = sheet_file_hash(content)
    if len(content) > MAX_BYTES:
        return SheetFile([], [], file_hash, too_large())
    if content.startswith(XLSX_MAGIC):
        try:
            rows = _workbook_rows(content)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, ValueError, OSError, EOFError):
            rows = _unreadable(N_("This Excel file cannot be opened: save it again as .xlsx or .csv."))
    else:
        text = _text_of(content)
        if text is None:
            rows = _unreadable(N_("This file is neither UTF-8 nor CP949 text: save it as CSV or .xlsx."))
        else:
            rows = _csv_rows(text)
    if isinstance(rows, Refusal):
        return SheetFile([], [], file_hash, rows)
    return SheetFile(*rows, file_hash)
