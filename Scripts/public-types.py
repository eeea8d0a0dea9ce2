#!/usr/bin/env python3
"""The public types and functions of each library, from its symbol graph, as the table that
Docs/architecture.md holds under "## Public types" (between its two marker comments).

Usage: Scripts/public-types.py GRAPHS_DIR check|update
  GRAPHS_DIR holds MODULE/MODULE.symbols.json for each library (Scripts/check-docs makes them).
  check: exit 1, printing the difference, when the page's table is not the modules' own.
  update: rewrite the page's table.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PAGE = os.path.join(ROOT, "Docs", "architecture.md")
BEGIN = "<!-- public types: made by Scripts/check-docs --update-public-types -->"
END = "<!-- end of public types -->"
KINDS = {"struct", "class", "enum", "protocol", "typealias", "func", "var", "macro", "actor"}


def table(graphs):
    rows = ["| module | public types and functions |", "|---|---|"]
    for module in sorted(os.listdir(graphs)):
        path = os.path.join(graphs, module, module + ".symbols.json")
        if not os.path.exists(path):
            continue
        symbols = json.load(open(path))["symbols"]
        names = sorted(
            {
                s["names"]["title"].split("(")[0]
                for s in symbols
                if len(s["pathComponents"]) == 1 and s["kind"]["identifier"].split(".")[-1] in KINDS
            }
        )
        rows.append(f"| `{module}` | " + ", ".join(f"`{name}`" for name in names) + " |")
    return "\n".join(rows)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("check", "update"):
        sys.exit(__doc__)
    expected = table(sys.argv[1])
    page = open(PAGE).read()
    if BEGIN not in page or END not in page:
        sys.exit(f"error: Docs/architecture.md has no {BEGIN} ... {END} section")
    before, rest = page.split(BEGIN, 1)
    current, after = rest.split(END, 1)
    if sys.argv[2] == "update":
        open(PAGE, "w").write(before + BEGIN + "\n" + expected + "\n" + END + after)
        return
    if current.strip() != expected.strip():
        have = set(current.strip().splitlines())
        want = set(expected.strip().splitlines())
        for line in sorted(want - have):
            print("the modules have:  " + line, file=sys.stderr)
        for line in sorted(have - want):
            print("the page says:     " + line, file=sys.stderr)
        sys.exit("error: Docs/architecture.md's public types are not the modules' own;"
                 " run Scripts/check-docs --update-public-types")


main()
