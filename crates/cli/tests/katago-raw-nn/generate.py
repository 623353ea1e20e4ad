#!/usr/bin/env python3
"""Makes the golden files of tests/nn_parity.rs with a real KataGo (never checked in).

Each position is set up by GTP commands (board size, KataGo rules by name, komi, moves: some
written here, the rest chosen by KataGo's own genmove at a few visits), then evaluated with
`kata-raw-nn`. NAME.gtp holds the commands, with every move as a `play`; NAME.out is KataGo's
full answer to them, run afresh.

Usage: generate.py KATAGO MODEL CONFIG [NAME...]   (from this directory; NAMEs: only those)
e.g.   generate.py /work/katago/katago /work/katago/b6.bin.gz /work/katago/gtp.cfg
"""
import subprocess
import sys

KATAGO, MODEL, CONFIG = sys.argv[1:4]
ONLY = set(sys.argv[4:])

# name, size, rules, komi, moves before KataGo's ("!" marks another command), KataGo's moves,
# moves after, raw-nn args
POSITIONS = [
    ("empty-9-chinese", 9, "chinese", "7", [], 0, [], ["0", "5"]),
    ("opening-9-japanese", 9, "japanese", "6.5", [], 12, [], ["0", "3"]),
    ("ko-9-chinese", 9, "chinese", "7",
     ["B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B C3", "W G5", "B F5"], 0, [], ["0", "6"]),
    ("captures-9-tromp-taylor", 9, "tromp-taylor", "7", [], 60, [], ["0", "2"]),
    ("pass-9-chinese", 9, "chinese", "7", [], 20, ["W pass"], ["0"]),
    ("two-passes-9-chinese", 9, "chinese", "7", [], 40, ["B pass", "W pass"], ["0"]),
    ("pass-9-tromp-taylor", 9, "tromp-taylor", "7.5", [], 31, ["B pass"], ["0"]),
    ("middle-13-aga", 13, "aga", "7.5", [], 50, [], ["0", "7"]),
    ("ladder-13-japanese", 13, "japanese", "6.5",
     ["B D4", "W K10", "B K4", "W D10", "B C10", "W C11", "B D11", "W E11", "B C9", "W E10",
      "B G7", "W G6", "B H6", "W F7", "B F6", "W G5", "B H5", "W G4"], 0, [], ["0", "1"]),
    ("pass-13-japanese", 13, "japanese", "6.5", [], 30, ["B pass"], ["0"]),
    ("button-13-aga-button", 13, "aga-button", "7", [], 24, ["B pass"], ["0"]),
    ("opening-19-chinese", 19, "chinese", "7.5", [], 16, [], ["0", "4"]),
    ("fight-19-new-zealand", 19, "new-zealand", "7", [], 70, [], ["0"]),
    ("middle-19-korean", 19, "korean", "6.5", [], 90, [], ["0"]),
    ("positional-19-chinese-ogs", 19, "chinese-ogs", "7.5", [], 40, [], ["0", "all"]),
    # A two-liberty white stone Black can ladder (planes 14 and 17), then the same in atari
    # with White to move; each also asked for the other colour (history cleared).
    ("ladder-two-libs-13-chinese", 13, "chinese", "7",
     ["B D5", "W E5", "B E6", "W K10", "B F4", "W K3"], 0, [], ["0", "w 0"]),
    ("ladder-atari-13-japanese", 13, "japanese", "6.5",
     ["B D5", "W E5", "B E6", "W K10", "B F4", "W K3", "B F5"], 0, [], ["0", "b 3"]),
    # Group tax: the independent-life area planes (stone scoring), and territory with tax.
    ("endgame-9-stone-scoring", 9, "stone-scoring", "7.5", [], 56, [], ["0", "5"]),
    ("late-13-stone-scoring", 13, "stone-scoring", "7.5", [], 110, [], ["0"]),
    ("middle-9-ancient-territory", 9, "ancient-territory", "6.5", [], 30, [], ["0"]),
    # Two passes under territory scoring: KataGo's GTP stays out of the encore.
    ("two-passes-9-japanese", 9, "japanese", "6.5", [], 40, ["B pass", "W pass"], ["0"]),
    ("three-passes-9-korean", 9, "korean", "6.5", [], 40, ["B pass", "W pass", "B pass"], ["0"]),
    # Handicap stones: White's bonus under Chinese (N) and AGA (N-1) rules, and Japanese (none).
    ("handicap-19-chinese", 19, "chinese", "0.5", ["!fixed_handicap 4"], 10, [], ["0"]),
    ("handicap-13-aga", 13, "aga", "0.5", ["!fixed_handicap 3"], 6, [], ["0"]),
    ("handicap-9-japanese", 9, "japanese", "0.5", ["!fixed_handicap 2"], 4, [], ["0"]),
    # A ko taken, then both pass: retaking is no simple-ko ban but repeats a position (superko).
    ("superko-9-chinese-ogs", 9, "chinese-ogs", "7",
     ["B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B C3", "W G5", "B F5", "W pass", "B pass"],
     0, [], ["0"]),
    ("superko-9-aga", 9, "aga", "7",
     ["B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B C3", "W G5", "B F5", "W pass", "B pass"],
     0, [], ["0"]),
]


def katago(commands, extra=()):
    args = [KATAGO, "gtp", "-model", MODEL, "-config", CONFIG, *extra]
    p = subprocess.run(args, input="\n".join(commands + ["quit"]) + "\n",
                       capture_output=True, text=True, check=True)
    return p.stdout


def setup(size, rules, komi):
    return [f"boardsize {size}", "clear_board", f"kata-set-rules {rules}", f"komi {komi}"]


class Session:
    """One KataGo answering commands one at a time."""

    def __init__(self, extra):
        args = [KATAGO, "gtp", "-model", MODEL, "-config", CONFIG, *extra]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line.strip() == "" and lines:
                return "\n".join(lines)
            if line.strip():
                lines.append(line.strip())

    def close(self):
        self.ask("quit")
        self.p.wait()


def main():
    for name, size, rules, komi, before, n, after, syms in POSITIONS:
        if ONLY and name not in ONLY:
            continue
        moves = [m[1:] if m.startswith("!") else f"play {m}" for m in before]
        colors = "BW" if len(before) % 2 == 0 else "WB"
        s = Session(["-override-config", "maxVisits=8,allowResignation=false"])
        for c in setup(size, rules, komi) + moves:
            s.ask(c)
        for i in range(n):
            c = colors[i % 2]
            answer = s.ask(f"genmove {c}")[1:].strip()
            moves.append(f"play {c} {answer}")
        s.close()
        moves += [f"play {m}" for m in after]
        commands = setup(size, rules, komi) + moves + [f"kata-raw-nn {s}" for s in syms]
        with open(f"{name}.gtp", "w") as f:
            f.write("\n".join(commands) + "\n")
        with open(f"{name}.out", "w") as f:
            f.write(katago(commands))
        print(name, len(moves), "moves")


main()
