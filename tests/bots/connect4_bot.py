"""Connect Four test bot for `kibitz match connect4 --a cmd:'python3 tests/bots/connect4_bot.py
-h {host} -p {port} -n {name}'`: registers over UDP (specs/connect4.md sections 2-5), joins the
season, plays random legal columns on a 7x6 board and exits after the game's RESULT.
--mode crash|hang|late|illegal|noconnect|nojoin misbehaves on purpose (the arena's failure tests).
Python 3 standard library only."""
import argparse, os, random, socket, sys, time

ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("-h", default="127.0.0.1"); ap.add_argument("-p", type=int, required=True)
ap.add_argument("-n", required=True); ap.add_argument("--mode", default="play")
args = ap.parse_args()
COLUMNS, ROWS = 7, 6

def log(text):
    print(text, file=sys.stderr, flush=True)

log(f"pid {os.getpid()} mode {args.mode}")
if args.mode == "noconnect":
    time.sleep(3600)
server = (args.h, args.p)
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.settimeout(0.5)
sock.sendto(f"REGISTER;{args.n}".encode(), server)
heights = [0] * COLUMNS
while True:
    try:
        data, _ = sock.recvfrom(65536)
    except socket.timeout:
        sock.sendto(f"REGISTER;{args.n}".encode(), server)  # until WELCOME (UDP may lose it)
        continue
    msg = data.decode("utf-8", "replace")
    head, _, rest = msg.partition(";")
    if head == "WELCOME":
        log(f"registered as {rest}")
        sock.settimeout(None)
    elif head == "NEW SEASON":
        if args.mode == "nojoin":
            log("not joining the season")
            continue
        sock.sendto(f"JOIN;{rest}".encode(), server)
    elif head == "NEW GAME":
        log(f"new game against {rest}")
        heights = [0] * COLUMNS
    elif head == "TOKEN INSERTED":
        col = int(rest.rsplit(";", 1)[1])
        if 0 <= col < COLUMNS:
            heights[col] += 1
    elif head == "YOURTURN":
        log(f"move request after {sum(heights)} stones")
        if args.mode == "crash":
            sys.exit("crashing on purpose")
        if args.mode == "hang":
            time.sleep(3600)
        if args.mode == "late":
            time.sleep(0.5)
        col = COLUMNS if args.mode == "illegal" else \
            random.choice([c for c in range(COLUMNS) if heights[c] < ROWS])
        sock.sendto(f"INSERT;{col};{rest}".encode(), server)
    elif head == "RESULT":
        log(f"game over: {msg}")
        if args.mode == "late":
            # Stay up until the arena stops us: a late bot that then exits on its own could
            # be seen exiting within the arena's grace and be reported as "its program exited".
            continue
        sys.exit(0)
