# SPDX-License-Identifier: GPL-2.0
"""What check_report.py and check_compare.py share: TAP lines, the kernel's
site tables, an independent gcov run, and the numbers a page shows.

  main(doc, commands)        run the command sys.argv names; the exit status
  check(ok, what)            one TAP line ("ok N - what" or "not ok N - what")
  table(path)                a sites.txt as {name: {column: value}}
  gcov_files(gcno, gcda)     gcov's JSON "files" of every .gcno with its .gcda
  Numbers                    the data-k numbers of a page (Chromium's --dump-dom)
"""

import glob
import html.parser
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile

failed = 0
count = 0


def check(ok, what):
    global failed, count
    count += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (count, what))
    if not ok:
        failed += 1


def main(doc, commands):
    """sys.argv: a name of commands ({name: function}) and that function's
    arguments; the exit status: 2 and doc when they are not, 1 when a check
    failed, else 0"""
    fn = commands.get(sys.argv[1]) if len(sys.argv) > 1 else None
    if not fn or len(sys.argv) - 2 != len(inspect.signature(fn).parameters):
        print(doc, file=sys.stderr)
        return 2
    fn(*sys.argv[2:])
    return 1 if failed else 0


def table(path):
    """sites.txt: a "# name ..." header naming the columns, a row a site"""
    rows = {}
    with open(path) as f:
        cols = None
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0].startswith("#"):
                cols = " ".join(fields).lstrip("#").split()
                continue
            rows[fields[0]] = dict(zip(cols, fields))
    return rows


def gcov_files(gcno_dir, gcda_dir, flags=()):
    """gcov -t -j FLAGS on a copy of gcno_dir's .gcno and gcda_dir's .gcda (where one
    is there): the "files" of its JSON documents, as gcov names them"""
    tmp = tempfile.mkdtemp()
    try:
        objs = []
        for g in sorted(glob.glob(os.path.join(gcno_dir, "*.gcno"))):
            base = os.path.basename(g)[:-5]
            shutil.copy(g, tmp)
            d = os.path.join(gcda_dir, base + ".gcda")
            if os.path.exists(d):
                shutil.copy(d, tmp)
            objs.append(base + ".c")
        out = subprocess.run(["gcov", "-t", "-j"] + list(flags) + ["-o", "."] + objs, cwd=tmp,
                             capture_output=True, text=True, check=True).stdout
    finally:
        shutil.rmtree(tmp)
    return [f for doc in out.splitlines() if doc.strip() for f in json.loads(doc)["files"]]


class Numbers(html.parser.HTMLParser):
    """data-k values: those of a site row (data-site) or a file row (data-file)
    in its row of sites or files, the others in values; the inline SVG charts
    and the <title>s in them counted"""

    def __init__(self):
        super().__init__()
        self.values = {}
        self.sites = {}
        self.files = {}
        self.key = None
        self.row = None
        self.text = ""
        self.svgs = 0
        self.titles = 0
        self.in_svg = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svgs += 1
            self.in_svg = True
        elif tag == "title" and self.in_svg:
            self.titles += 1
        elif tag == "tr" and "data-site" in a:
            self.row = self.sites.setdefault(a["data-site"], {})
        elif tag == "tr" and "data-file" in a:
            self.row = self.files.setdefault(a["data-file"], {})
        elif tag == "tr":
            self.row = None
        if "data-k" in a:
            self.key = a["data-k"]
            self.text = ""

    def handle_data(self, data):
        if self.key is not None:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_svg = False
        elif tag == "tr":
            self.row = None
        elif self.key is not None and tag in ("span", "td"):
            target = self.row if self.row is not None else self.values
            target[self.key] = int(self.text.strip())
            self.key = None
