"""A spreadsheet file as rows of text: CSV in UTF-8 (with or without the BOM Excel adds) or in
CP949/EUC-KR (what Korean Excel writes), or an Excel workbook (its first sheet, through openpyxl).

What the rows mean is scoring/sheets.py's; this module only reads files.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import zipfile
from dataclasses import dataclass

from scoring.words import N_, Words

# a group's whole history is a few thousand rows: far under this
MAX_BYTES = 5 * 1024 * 1024
XLSX_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class SheetFile:
    rows: list[list[str]]
    file_hash: str  # SHA-256 of the bytes as sent: the same file brought in twice is known by it
    refusal: Words | None = None  # why the file cannot be read at all


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


def _workbook_rows(content: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        sheet = workbook.worksheets[0]
        return [[_cell_text(value) for value in row] for row in sheet.iter_rows(values_only=True)]
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


def sheet_file(content: bytes) -> SheetFile:
    """The rows of a CSV or XLSX file, every cell as text; a refusal when it is neither."""
    file_hash = hashlib.sha256(content).hexdigest()
    if len(content) > MAX_BYTES:
        return SheetFile([], file_hash, Words(N_("The file is larger than {limit} MB."), limit=MAX_BYTES // 2**20))
    if content.startswith(XLSX_MAGIC):
        try:
            return SheetFile(_workbook_rows(content), file_hash)
        except (zipfile.BadZipFile, KeyError, ValueError, OSError):
            return SheetFile([], file_hash, Words(N_("This Excel file cannot be opened: save it again as .xlsx or .csv.")))
    text = _text_of(content)
    if text is None:
        return SheetFile([], file_hash, Words(N_("This file is neither UTF-8 nor CP949 text: save it as CSV or .xlsx.")))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return SheetFile(list(csv.reader(io.StringIO(text, newline=""), dialect)), file_hash)
