"""Every rules reference in the repository resolves inside it (issue 42).

The code and the docs cite the rules as sections and Decisions of docs/rules.md: `rules.md §4` (or a bare
`§4`), `§9.2`, ranges `§9.1-9.4`, the dice games' `§dice-4.4`, their Decisions `D23`, `D18-D23`, and headings
by name (`docs/rules.md "Walls"`). docs/rules.md defines the ids by its headings (`## §3 A turn`) and bold
labels (`**§dice-4.4**`, `**Decision D23**`); its top explains the scheme.

Checked here, over every source and doc file of the repository (pure Python, no engine):

* every section id, Decision id and heading name cited is defined in docs/rules.md;
* nothing cites the specification files kept outside the repository (the upper-case names of the old
  references, with or without `.md`, and the old `DICE §` prefix). The one exception: the opening of
  docs/rules.md (before its Part 1) says where the specification lives;
* in a file of the dice games (a name with "dice" or "alcazaba", or a folder named dice) or a doc's dice
  section, a bare base-game section (`§4`) is ambiguous: it must be `§dice-4`, or `rules.md §4` when the base
  game is meant. docs/rules.md itself, which names both parts' sections on purpose, is exempt.

This file is not scanned (its patterns would match themselves). The rewrite of old references to these forms
is a script kept outside the repository (issue 42); this test is what keeps the tree clean afterwards.
"""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = ROOT / "docs" / "rules.md"
EXTENSIONS = {".py", ".pyx", ".pxi", ".pxd", ".js", ".html", ".md", ".csv", ".toml", ".cfg"}
SKIP_DIRS = {".git", "build", "dist", "__pycache__", "node_modules", ".pytest_cache", ".ruff_cache",
             ".mypy_cache", ".tox", ".venv", "venv", ".eggs"}

S = "\u00a7"  # the section sign, spelled out so that this file holds none
NUM = r"\d+(?:\.\d+)*"
ID = rf"(?:dice-{NUM}|dice(?![-\w])|{NUM})"
SECTION = re.compile(rf"{S}({ID})?(?:[-\u2013]({NUM}))?")  # group 1 None: a section sign without an id
DECISION = re.compile(r"\bD(\d+)\b(?:\s*[-\u2013]\s*D(\d+)\b)?")
PREFIX = r"(?:docs/)?rules\.md"
REF = rf"(?:{S}{ID}(?:[-\u2013]{NUM})?|D\d+\b)"
PREFIXED_CHAIN = re.compile(rf"\b{PREFIX}\s+{REF}(?:\s*(?:,|/|;|&|\band\b|\bor\b|\bto\b)\s*{REF})*")
QUOTED_HEADING = re.compile(rf"\b{PREFIX}\s+\"([^\"\n]+)\"")
OUTSIDE_SPEC = re.compile(r"\b(?:DICE-)?RULES\b(?:\.md)?|\bDICE\s*" + S)
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
DEFINED_BY_HEADING = re.compile(rf"^#{{1,6}}\s+(?:Part \d+ \u2014 )?{S}({ID})")
DEFINED_BY_LABEL = re.compile(rf"\*\*{S}({ID})\*\*")
DECISION_LABEL = re.compile(r"\*\*Decision D(\d+)\*\*")
DICE_WORDS = re.compile(r"dice|alcazaba", re.IGNORECASE)


def rules_page_ids():
    """(section ids, Decision numbers, heading texts) that docs/rules.md defines."""
    sections, decisions, headings = set(), set(), []
    for line in RULES_PAGE.read_text(encoding="utf-8").splitlines():
        m = DEFINED_BY_HEADING.match(line)
        if m:
            sections.add(m.group(1))
        sections.update(DEFINED_BY_LABEL.findall(line))
        decisions.update(int(d) for d in DECISION_LABEL.findall(line))
        h = HEADING.match(line)
        if h:
            headings.append(h.group(2))
    return sections, decisions, headings


def scanned_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath, name)
            if path.suffix in EXTENSIONS and path.resolve() != Path(__file__).resolve():
                yield path


def dice_file(rel):
    return bool(DICE_WORDS.search(rel.name)) or "dice" in rel.parts[:-1]


def dice_lines(rel, lines):
    """Per line: does it belong to the dice games (the whole file, or a Markdown section about them)?"""
    if dice_file(rel):
        return [True] * len(lines)
    if rel.suffix != ".md":
        return [False] * len(lines)
    flags, stack, fence = [], [], False  # stack: (level, is_dice) of the open headings
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        h = None if fence else HEADING.match(line)
        if h:
            level = len(h.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, bool(DICE_WORDS.search(h.group(2)))))
        flags.append(any(d for _, d in stack))
    return flags


def section_exists(sid, sections):
    return sid in sections


def problems_in(path, sections, decisions, headings):
    rel = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    is_page = path.resolve() == RULES_PAGE.resolve()
    dice = [False] * len(lines) if is_page else dice_lines(rel, lines)
    preamble_end = 0
    if is_page:
        preamble_end = next((i for i, line in enumerate(lines) if line.startswith("# Part 1")), 0)
    out = []
    for i, line in enumerate(lines):
        where = f"{rel}:{i + 1}"
        if i >= preamble_end:
            for m in OUTSIDE_SPEC.finditer(line):
                out.append(f"{where}: {m.group(0)!r} names the specification outside the repository: "
                           f"cite docs/rules.md ({line.strip()[:90]})")
        prefixed = [m.span() for m in PREFIXED_CHAIN.finditer(line)]
        for m in SECTION.finditer(line):
            if m.group(1) is None:
                out.append(f"{where}: a section sign without a section id ({line.strip()[:90]})")
                continue
            sid, end = m.group(1), m.group(2)
            ids = [sid]
            if end is not None:
                ids.append(("dice-" + end) if sid.startswith("dice-") else end)
            for x in ids:
                if not section_exists(x, sections):
                    out.append(f"{where}: {S}{x} is no section of docs/rules.md ({line.strip()[:90]})")
            in_chain = any(a <= m.start() < b for a, b in prefixed)
            if dice[i] and not sid.startswith("dice") and not in_chain:
                out.append(f"{where}: bare {S}{sid} in the dice games: write {S}dice-{sid}, "
                           f"or rules.md {S}{sid} for the base game ({line.strip()[:90]})")
        for m in DECISION.finditer(line):
            for d in filter(None, m.groups()):
                if int(d) not in decisions:
                    out.append(f"{where}: D{d} is no Decision of docs/rules.md ({line.strip()[:90]})")
        for m in QUOTED_HEADING.finditer(line):
            name = m.group(1).lower()
            if not any(name in h.lower() for h in headings):
                out.append(f"{where}: docs/rules.md has no heading {m.group(1)!r}")
    return out


def test_the_rules_page_defines_every_section_and_decision_of_the_scheme():
    sections, decisions, _ = rules_page_ids()
    expected = {str(k) for k in range(1, 11)} | {f"9.{k}" for k in range(10)} | {"dice"}
    expected |= {f"dice-{k}" for k in range(1, 14)}
    expected |= {f"dice-{a}.{b}" for a, n in ((2, 4), (3, 6), (4, 6)) for b in range(1, n + 1)}
    assert not expected - sections, f"docs/rules.md lacks {sorted(expected - sections)}"
    assert decisions == set(range(1, 27)), f"Decisions defined: {sorted(decisions)}"


def test_every_rules_reference_resolves_inside_the_repository():
    sections, decisions, headings = rules_page_ids()
    problems, files = [], 0
    for path in scanned_files():
        files += 1
        problems += problems_in(path, sections, decisions, headings)
    assert files > 50, f"only {files} files scanned from {ROOT}"
    shown = "\n".join(problems[:80]) + (f"\n... and {len(problems) - 80} more" if len(problems) > 80 else "")
    assert not problems, f"{len(problems)} rules references do not resolve in docs/rules.md:\n{shown}"
