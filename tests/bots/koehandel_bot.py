"""Koehandel test bot for `kibitz match koehandel --a 'cmd:python3 tests/bots/koehandel_bot.py
--host {host} --port {port}'`: serves the player endpoint of specs/koehandel.md (HTTP GET, reply
`?var=value`) on 127.0.0.1:PORT for every seat the market gives it (seats are told apart by
`market` and `id`). It always auctions, never bids or buys back and accepts every trade, so it
never has to choose cards. --mode crash|hang|late|illegal|noconnect misbehaves on purpose (the
arena's failure tests). Python 3 standard library only."""
import argparse, http.server, os, sys, time, urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument("--host", default="127.0.0.1"); ap.add_argument("--port", type=int, required=True)
ap.add_argument("--mode", default="play")
args = ap.parse_args()
print(f"pid {os.getpid()} mode {args.mode}", file=sys.stderr, flush=True)
if args.mode == "noconnect":
    time.sleep(3600)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        q = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query, keep_blank_values=True))
        t = q.get("type", "")
        reply = "?"
        if t == "start":
            print(f"start as id {q.get('id')} in market {q.get('market')}", file=sys.stderr, flush=True)
            if args.mode == "crash":
                os._exit(3)
            if args.mode == "hang":
                time.sleep(3600)
            if args.mode == "late":
                time.sleep(1.5)
            reply = "?type=dance" if args.mode == "illegal" else "?type=auction"
        elif t == "end":
            print(f"end {q.get('message')} as id {q.get('id')}", file=sys.stderr, flush=True)
        body = reply.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


http.server.ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()
