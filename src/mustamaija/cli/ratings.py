"""``mustamaija ratings RECORD...|DIR... [--json] [--game G] [--names]``: Glicko-2 ratings from record files.

Every record is replayed, turned into pairwise results by the rule of
:mod:`mustamaija.ratings.outcomes` and rated as one rating period, in the
order given (the files of a folder, and of its folders, in the order of
their names: a tournament's ``deal-NNNNNN-rot-R.json`` files in the order
they were played). Seats are rated under the identities their record names
(:mod:`mustamaija.ratings.records`): the bot spec of each seat (tournament
records and the web app's ``bots``), the signed-in names of the web app's
``signed_in``; with ``--names``, the seat names of any other seat too. So
every bot level gets a rating from a tournament, even one nobody plays on a
server::

    mustamaija tournament --players 4 --bots easy,medium,hard,expert --deals 200 --out games/
    mustamaija ratings games/

The ratings are the web app's (docs/web.md, "Ratings"), with one difference:
records hold no times, so a deviation does not grow between deals.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mustamaija.cli.options import failed, print_json
from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.core.records import read_json
from mustamaija.core.registry import game_for_record, game_names, get_game
from mustamaija.ratings import Ledger, deal_outcomes, record_seats
from mustamaija.ratings.names import identity_kind, identity_name
from mustamaija.ratings.standings import PROVISIONAL_RD


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "ratings", help="compute Glicko-2 ratings of bot levels and names from record files (tournaments, the web app)",
        description="Rate every seat that a record names (bot specs, signed-in names) with Glicko-2, one rating "
        "period a deal, in the order of the files (a folder's in the order of their names), by the pairwise rule "
        "of docs/web.md: a single loser lost to every other seat; points decide each pair, equal points a draw.",
    )
    p.add_argument("paths", nargs="+", metavar="RECORD|DIR", help="record files of any game, or folders of them")
    p.add_argument("--game", choices=game_names(), default=None, help="rate only the records of this game")
    p.add_argument("--names", action="store_true",
                   help="rate a seat that names no bot and no signed-in name under its seat name")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    p.set_defaults(run=run)


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for text in paths:
        path = Path(text)
        out += sorted(p for p in path.rglob("*.json") if p.is_file()) if path.is_dir() else [path]
    return out


def _row(rank: int, identity: str, s: Any) -> dict[str, Any]:
    return {"rank": rank, "identity": identity, "name": identity_name(identity), "kind": identity_kind(identity),
            "rating": round(s.rating.rating, 1), "rd": round(s.rating.rd, 1), "volatility": round(s.rating.volatility, 6),
            "provisional": s.provisional, "games": s.games, "wins": s.wins, "losses": s.losses, "draws": s.draws}


def _table(title: str, deals: int, unrated: int, rows: list[dict[str, Any]]) -> str:
    lines = [f"{title}: {deals} deal{'s' * (deals != 1)} rated, {unrated} not rated "
             "(no result, or fewer than two rated seats)"]
    if not rows:
        return lines[0]
    width = max(4, *(len(r["name"]) for r in rows))
    lines.append(f"{'rank':>4}  {'name':<{width}}  kind   rating     RD  games   wins losses  draws")
    for r in rows:
        shown = f"{r['rating']:.0f}{'?' if r['provisional'] else ' '}"
        lines.append(f"{r['rank']:>4}  {r['name']:<{width}}  {r['kind']:<5} {shown:>7} {r['rd']:>6.0f} {r['games']:>6} "
                     f"{r['wins']:>6} {r['losses']:>6} {r['draws']:>6}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Rate every record, in order; print each game's table (or one JSON object); report bad files on stderr."""
    ledger = Ledger()
    bad = 0
    files = _files(args.paths)
    for path in files:
        try:
            obj = read_json(path.read_bytes())
            game = game_for_record(obj)
            if args.game is not None and game.name != args.game:
                continue
            record = game.load_record(obj)
            ledger.add(game.name, record_seats(game, record, names=args.names), deal_outcomes(game, record.replay()))
        except OSError as e:
            bad += failed(str(path), FormatError(f"cannot read the file: {e.strerror or e}"))
        except MustamaijaError as e:  # Not JSON, not a record of a known game, or an action that breaks a rule.
            bad += failed(str(path), e)
    games: list[dict[str, Any]] = []
    for name in ledger.games():
        rows = [_row(rank, who, s) for rank, who, s in ledger.board(name)]
        games.append({"game": name, "title": get_game(name).title, "deals": ledger.deals.get(name, 0),
                      "unrated": ledger.unrated.get(name, 0), "ratings": rows})
    if args.json:
        print_json({"files": len(files), "failed": bad, "provisional_rd": PROVISIONAL_RD, "games": games})
    else:
        print("\n\n".join(_table(g["title"], g["deals"], g["unrated"], g["ratings"]) for g in games)
              or "no deal of any game was found", flush=True)
        if any(r["provisional"] for g in games for r in g["ratings"]):
            print(f"\n? provisional: the rating's deviation is over {PROVISIONAL_RD:.0f}", flush=True)
    if bad:
        print(f"{bad} of {len(files)} files could not be rated", file=sys.stderr)
    return 1 if bad else 0
