# SPDX-License-Identifier: GPL-2.0
"""The command line of compare/'s Python programs: parser(PROG, DOC), whose --help is DOC (its
first paragraph above the options, the rest below them) and whose usage error is one line
naming the problem (exit 2), not the usage block; one_folder(...) for a program whose one
argument is a results folder."""

import argparse
import os
import sys


class OneLineParser(argparse.ArgumentParser):
    """A usage error as one line naming the problem (exit 2), not the usage block."""
    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def parser(prog, doc):
    """A OneLineParser for PROG with DOC as its --help."""
    return OneLineParser(prog=prog, description=doc.split("\n\n")[0],
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         epilog=doc.split("\n\n", 1)[1])


def one_folder(argv, prog, doc, need, missing):
    """The folder of `PROG DIR`: argv's one argument, a folder holding the file NEED. --help
    prints DOC (exit 0); no folder or more than one prints DOC after a line asking for one, a
    folder without NEED the line "PROG: 'DIR' MISSING" (exit 2 both)."""
    if any(a in ("-h", "--help") for a in argv):
        print(doc.strip())
        sys.exit(0)
    if len(argv) != 1 or argv[0].startswith("-"):
        print(f"{prog}: give one results folder\n" + doc.strip(), file=sys.stderr)
        sys.exit(2)
    if not os.path.isfile(os.path.join(argv[0], need)):
        print(f"{prog}: '{argv[0]}' {missing}", file=sys.stderr)
        sys.exit(2)
    return argv[0]
