# SPDX-License-Identifier: GPL-2.0
"""report.html from the report's markdown: the subset the sections write (headings, tables,
lists, paragraphs, images, bold, italics, code), with every image embedded as a data URI, so
that the file reads offline on its own."""

import base64
import html
import os
import re

STYLE = ("body{font-family:sans-serif;max-width:80em;margin:1em auto;padding:0 1em;"
         "line-height:1.4}table{border-collapse:collapse;margin:.5em 0;font-size:90%}"
         "td,th{border:1px solid #bbb;padding:2px 6px;vertical-align:top}th{background:#eee}"
         "code{background:#f4f4f4}img{max-width:100%}")


def inline(text):
    t = html.escape(text, quote=False)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    t = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"<i>\1</i>", t)
    return t


def image(line, folder):
    mo = re.fullmatch(r"!\[([^]]*)\]\(([^)]+)\)", line)
    path = os.path.join(folder, mo.group(2))
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    return f'<p><img alt="{html.escape(mo.group(1))}" src="data:image/png;base64,{data}"></p>'


def cells(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]


def convert(md, folder, title="ramlld comparison report"):
    """The HTML page of markdown md; images are read from folder."""
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
           f"</title><style>{STYLE}</style></head><body>"]
    lines = md.split("\n")
    i, para = 0, []

    def flush():
        if para:
            out.append("<p>" + inline(" ".join(para)) + "</p>")
            para.clear()
    while i < len(lines):
        ln = lines[i]
        if not ln.strip():
            flush()
        elif ln.startswith("#"):
            flush()
            n = len(ln) - len(ln.lstrip("#"))
            out.append(f"<h{n}>{inline(ln[n:].strip())}</h{n}>")
        elif ln.startswith("!["):
            flush()
            out.append(image(ln, folder))
        elif ln.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in cells(rows[0]))
                       + "</tr>")
            for r in rows[2:]:
                out.append("<tr>" + "".join(f"<td>{inline(c.replace(chr(92) + '|', '|'))}</td>"
                                            for c in cells(r)) + "</tr>")
            out.append("</table>")
            continue
        elif ln.startswith("- "):
            flush()
            out.append("<ul>")
            while i < len(lines) and lines[i].startswith("- "):
                out.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            out.append("</ul>")
            continue
        else:
            para.append(ln)
        i += 1
    flush()
    out.append("</body></html>")
    return "\n".join(out) + "\n"
