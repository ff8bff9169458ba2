#!/usr/bin/env python3
"""The guide names only what the programs have, and lists every USI option.

Checked against the programs' own help, run here:
  - every `--option` written after `hisha-server` exists in `hisha-server --help`;
  - every `hisha SUBCOMMAND` exists in `hisha help`, and its `--options` in `hisha SUB --help`
    (or in `hisha help`'s line for it);
  - the USI options the guide lists are exactly those `hisha usi` declares;
  - every command in the guide's table of the interactive program's commands is in its `help`;
  - every text-protocol command the guide names is in the server's HELP COMMAND-LIST.
Usage: guide_check.py HISHA HISHA_SERVER GUIDE_DIR SHOOGI_HELP_TXT
"""
import re
import subprocess
import sys
from pathlib import Path

hisha, server, guide_dir, shoogi_help = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
failures = []


def run(args, stdin=""):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=60)
    return p.stdout + p.stderr


def fail(where, what):
    failures.append(f"{where}: {what}")


pages = {p.name: p.read_text(encoding="utf-8") for p in sorted(guide_dir.glob("*.md"))}
if len(pages) < 5:
    sys.exit(f"FAIL: expected the guide's five pages in {guide_dir}, found {sorted(pages)}")


def code_lines(text):
    """Lines of fenced code blocks and inline code spans, with backslash continuations joined."""
    out, fenced, block = [], False, []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            block.append(line)
        else:
            out += re.findall(r"`([^`]+)`", line)
    joined = "\n".join(block).replace("\\\n", " ")
    return out + joined.splitlines()


server_help = run([server, "--help"])
hisha_help = run([hisha, "help"])
subcommands = set(re.findall(r"^\s*(?:usage:)?\s*hisha ([a-z][a-z-]*)", hisha_help, re.M))
sub_help = {}

for name, text in pages.items():
    for code in code_lines(text):
        words = code.split()
        if not words:
            continue
        if words[0] == "hisha-server":
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", code):
                if not re.search(rf"^\s*{re.escape(opt)}\b", server_help, re.M):
                    fail(name, f"`{code}`: hisha-server has no {opt}")
        elif words[0] == "hisha" and len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*", words[1]):
            sub = words[1]
            if sub not in subcommands:
                fail(name, f"`{code}`: hisha has no subcommand {sub}")
                continue
            if sub not in sub_help:
                sub_help[sub] = run([hisha, sub, "--help"]) + "\n".join(
                    l for l in hisha_help.splitlines() if re.search(rf"\bhisha {sub}\b", l))
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", code):
                if opt not in sub_help[sub]:
                    fail(name, f"`{code}`: hisha {sub} has no {opt}")

# USI options: the guide's table against the engine's declarations, both ways.
declared = set(re.findall(r"^option name (\S+)", run([hisha, "usi"], "usi\nquit\n"), re.M))
listed = set()
for row in re.findall(r"^\| (`[^|]+) \|", pages["engine.md"], re.M):
    listed |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", row))
for opt in sorted(listed - declared):
    fail("engine.md", f"USI option {opt} is not declared by hisha usi")
for opt in sorted(declared - listed):
    fail("engine.md", f"hisha usi declares {opt}, which the options table does not list")

# The interactive program's commands.
program_help = run([hisha, "-R", "40", "5"], "help\nquit\n")
block = program_help.split("commands (GNU Shogi's", 1)[-1].splitlines()[1:]
known = set()
for line in block:
    if not re.match(r"[a-zA-Z?]", line):
        break  # the command list ends at the next prompt or status line
    known.add(line.split()[0])
section = pages["playing.md"].split("## In a terminal", 1)[1].split("\n## ", 1)[0]
table = [r for r in re.findall(r"^\| (`[^|]+) \|", section, re.M)]
if len(table) < 10:
    fail("playing.md", f"the table of commands has {len(table)} rows")
for row in table:
    for cmd in re.findall(r"`([a-z?]+)", row):
        if cmd not in known:
            fail("playing.md", f"the program has no command {cmd}")

# The text protocol's commands.
command_list = shoogi_help.read_text(encoding="utf-8").split("COMMANDS, COMMAND-LIST", 1)[1].split("For more", 1)[0]
server_commands = set(re.findall(r"\b([A-Z][A-Z-]+)\b", command_list))
section = pages["playing.md"].split("## On a server", 1)[1].split("\n## ", 1)[0]
for code in re.findall(r"`([A-Z][A-Z-]+)(?: [^`]*)?`", section):
    if code not in server_commands:
        fail("playing.md", f"the server has no command {code}")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print(f"PASS: the guide's commands and options exist ({len(pages)} pages, {len(declared)} USI options, "
      f"{len(table)} program commands)")
