"""Piranhas test bot for `kibitz match piranhas --a cmd:'python3 tests/bots/piranhas_bot.py
-h {host} -p {port} -r {reservation}'`: joins the prepared game over TCP XML (specs/piranhas.md
section 7) and plays a random legal move. --mode crash|hang|late|illegal|noconnect misbehaves
on purpose (the arena's failure tests). Python 3 standard library only."""
import argparse, os, random, socket, sys, time, xml.etree.ElementTree as ET

ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("-h", default="127.0.0.1"); ap.add_argument("-p", type=int, required=True)
ap.add_argument("-r", required=True); ap.add_argument("--mode", default="play")
args = ap.parse_args()
DIRS = {"UP": (0, 1), "DOWN": (0, -1), "RIGHT": (1, 0), "LEFT": (-1, 0), "UP_RIGHT": (1, 1),
        "DOWN_LEFT": (-1, -1), "UP_LEFT": (-1, 1), "DOWN_RIGHT": (1, -1)}

def legal(board, me):
    opp = "BLUE" if me == "RED" else "RED"
    on = lambda x, y: 0 <= x < 10 and 0 <= y < 10
    for (x, y), s in board.items():
        if s != me:
            continue
        for name, (dx, dy) in DIRS.items():
            d = 1 + sum(1 for k in (1, -1) for i in range(1, 10)
                        if on(x + k * i * dx, y + k * i * dy) and board[(x + k * i * dx, y + k * i * dy)] in ("RED", "BLUE"))
            tx, ty = x + d * dx, y + d * dy
            if on(tx, ty) and board[(tx, ty)] not in (me, "OBSTRUCTED") and \
                    all(board[(x + i * dx, y + i * dy)] != opp for i in range(d)):
                yield x, y, name

print(f"pid {os.getpid()} mode {args.mode}", file=sys.stderr, flush=True)
if args.mode == "noconnect":
    time.sleep(3600)
sock = socket.create_connection((args.h, args.p))
sock.sendall(f'<protocol><joinPrepared reservationCode="{args.r}"/>'.encode())
parser, depth, board, me = ET.XMLPullParser(("start", "end")), 0, {}, None
while True:
    chunk = sock.recv(65536)
    if not chunk:
        sys.exit("server closed the connection")
    parser.feed(chunk)
    for ev, el in parser.read_events():
        depth += 1 if ev == "start" else -1
        if ev != "end" or depth != 1:
            continue
        data = el.find("data")
        cls = data.get("class") if data is not None else None
        if cls == "memento":
            st = data.find("state")
            me = st.get("currentPlayerColor")
            board = {(int(f.get("x")), int(f.get("y"))): f.get("state") for f in st.iter("field")}
        elif cls == "sc.framework.plugins.protocol.MoveRequest":
            print(f"move request as {me}", file=sys.stderr, flush=True)
            if args.mode == "crash":
                sys.exit("crashing on purpose")
            if args.mode == "hang":
                time.sleep(3600)
            if args.mode == "late":
                time.sleep(2.5)
            x, y, d = (0, 0, "UP") if args.mode == "illegal" else random.choice(list(legal(board, me)))
            room = el.get("roomId")
            sock.sendall(f'<room roomId="{room}"><data class="move" x="{x}" y="{y}" direction="{d}"/></room>'.encode())
        elif el.tag == "left":
            sock.sendall(b"</protocol>")
            sys.exit(0)
