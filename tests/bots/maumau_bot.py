"""Mau-Mau test bot for `kibitz match maumau --a cmd:'python3 tests/bots/maumau_bot.py
-h {host} -p {port} -n {name}'`: registers under its name and plays the first legal card of its
hand, else draws, over the contest's JSON lines (specs/maumau.md). --mode
crash|hang|illegal|noconnect misbehaves on purpose (the arena's failure tests). Python 3
standard library only."""
import argparse, json, os, socket, sys, time

ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("-h", default="127.0.0.1"); ap.add_argument("-p", type=int, required=True)
ap.add_argument("-n", required=True); ap.add_argument("--mode", default="play")
args = ap.parse_args()

def legal(card, top, wish):
    jack = lambda c: c >> 2 == 4
    if wish >= 0:
        return card & 3 == wish and not jack(card)
    return card & 3 == top & 3 or card >> 2 == top >> 2 or jack(card)

print(f"pid {os.getpid()} mode {args.mode}", file=sys.stderr, flush=True)
if args.mode == "noconnect":
    time.sleep(3600)
sock = socket.create_connection((args.h, args.p))
out = sock.makefile("w", encoding="utf-8", newline="\n")
hand = []
for line in sock.makefile("r", encoding="utf-8"):
    msg = json.loads(line)
    if msg.get("sendName"):
        out.write(json.dumps({"status": "okay", "name": args.n}) + "\n"); out.flush()
    elif "topcard" in msg:
        print(f"request, top {msg['topcard']}", file=sys.stderr, flush=True)
        if "hand" in msg:
            hand = list(msg["hand"])
        elif msg.get("drawTwoCards"):
            hand += msg.get("drawedCards", [])
        if args.mode == "crash":
            sys.exit("crashing on purpose")
        if args.mode == "hang":
            time.sleep(3600)
        top, wish = msg["topcard"], msg["wishedColor"]
        play = [c for c in hand if legal(c, top, wish)]
        if args.mode == "illegal":
            out.write("this is not JSON\n"); out.flush()
            continue
        if play:
            card = play[0]; hand.remove(card); wished = hand[0] & 3 if hand else 0
        else:
            card, wished = -1, -1
        status = "turn" if card != -1 else "skip"
        out.write(json.dumps({"status": status, "selectedCard": card, "wishedColor": wished,
                              "skipped": False}) + "\n"); out.flush()
    elif "drawedCards" in msg and msg["drawedCards"] >= 0:
        hand.append(msg["drawedCards"])
    elif "winner" in msg or "won" in msg:
        print(f"game over: {line.strip()}", file=sys.stderr, flush=True)
        sys.exit(0)
sys.exit("server closed the connection")
