"""Drive `tengen gtp` through a full game with gomill's own GTP controller.

Usage: python gomill_game.py TENGEN_BINARY [OPPONENT COMMAND...]
Tengen plays Black; the opponent (default: a second Tengen) plays White. gomill's
Gtp_controller sends every command and gomill's Board keeps the position, so a move either
engine plays on an occupied point fails the run. Needs gomill's gtp_controller and boards
modules (see .ci/gomill-py3.sh).
"""
import sys

from gomill import boards, common, gtp_controller

SIZE = 9


def engine(command, name):
    channel = gtp_controller.Subprocess_gtp_channel(command)
    return gtp_controller.Gtp_controller(channel, name)


def main():
    tengen_bin = sys.argv[1]
    opponent_cmd = sys.argv[2:] or [tengen_bin, "gtp", "--seed", "2", "--playouts", "300", "--threads", "1"]
    players = {
        "b": engine([tengen_bin, "gtp", "--rules", "chinese", "--playouts", "300", "--threads", "1"], "tengen"),
        "w": engine(opponent_cmd, "opponent"),
    }
    for p in players.values():
        p.check_protocol_version()
        p.do_command("boardsize", str(SIZE))
        p.do_command("clear_board")
        p.do_command("komi", "7.5")
    board = boards.Board(SIZE)
    colour, passes, moves = "b", 0, 0
    while passes < 2 and moves < 400:
        vertex = players[colour].do_command("genmove", colour)
        if vertex.lower() == "resign":
            print("resigned:", colour)
            break
        move = common.move_from_vertex(vertex, SIZE)
        if move is None:
            passes += 1
        else:
            passes = 0
            board.play(move[0], move[1], colour)
        other = "w" if colour == "b" else "b"
        players[other].do_command("play", colour, vertex)
        moves += 1
        colour = other
    result = players["b"].do_command("final_score")
    print("result:", result)
    print("moves:", moves)
    for p in players.values():
        p.do_command("quit")
        p.close()
    if moves < 10:
        sys.exit("the game is too short")


if __name__ == "__main__":
    main()
