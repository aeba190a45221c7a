"""A corpus of hostile files, and every reader run on each: one line on stderr, never a traceback or a hang.

Of 375 hostile inputs, 20 once gave a traceback and 9 hung while memory grew: deep nesting, integers too
long to convert, devices, pipes and huge files, formulas that pass `content check` and explode in play,
values the rules cannot mean, unknown rulesets, garbage after a log. The slow test runs every reader on
every file in a child process with a time and a memory limit; the quick one runs each file once in-process.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.content import loader
from engine.core import codec, files
from engine.log import writer as log
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT = 90  # seconds a child may take (a reader that loops forever)
MEMORY_LIMIT = 3 << 30  # bytes of address space a child may map (a reader whose memory grows)
DEEP, LONG = "[" * 100_000, "9" * 5000
GOOD_PREFIX = ("deep", "long_int", "garbage_number", "deep_record")  # a whole log, or its header, then damage


def _rechained(lines: list[bytes]) -> bytes:
    import json

    out = []
    for raw in lines:
        record = json.loads(raw)
        record["prev"] = log.line_hash(out[-1]) if out else log.GENESIS
        out.append(codec.canonical(record).encode())
    return b"".join(raw + b"\n" for raw in out)


def _header_edit(lines: list[bytes], edit) -> bytes:
    import json

    header = json.loads(lines[0])
    edit(header)
    return _rechained([codec.canonical(header).encode(), *lines[1:]])


def _logs(folder: Path) -> dict[str, Path]:
    good = folder / "good.jsonl"
    assert main(["simulate", "--seed", "3", "--max-turns", "2", "--out", str(good)]) == 0
    data = good.read_bytes()
    lines = data.splitlines()
    made = {"deep": data + DEEP.encode() + b"\n", "long_int": data + LONG.encode() + b"\n",
            "deep_record": b"\n".join([lines[0], b'{"n":2,"kind":' + DEEP.encode(), *lines[2:]]) + b"\n",
            "empty": b"", "binary": bytes(range(256)) * 40, "not_json": b"hello\n", "not_object": b"[1,2,3]\n",
            "chess": _header_edit(lines, lambda h: h.update(ruleset="chess")),
            "phases_0": _header_edit(lines, lambda h: h["mission"].update(max_phases=0)),
            "phases_huge": _header_edit(lines, lambda h: h["mission"].update(max_phases=10**12)),
            "garbage_number": data + b"1" + b"0" * 4999 + b"\n"}
    out = {}
    for name, body in made.items():
        path = folder / f"{name}.jsonl"
        path.write_bytes(body)
        shutil.copy(log.seed_path(good), log.seed_path(path))
        out[name] = path
    huge = folder / "huge.jsonl"
    with open(huge, "wb") as f:
        f.truncate(files.MAX_LOG + 1)  # sparse: nothing is written, but it is too big to read
    fifo = folder / "fifo.jsonl"
    os.mkfifo(fifo)
    (folder / "dir.jsonl").mkdir()
    out.update(huge=huge, fifo=fifo, device=Path("/dev/zero"), dir=folder / "dir.jsonl")
    return out


CONTENT_EDITS = {  # name -> (file, pattern, replacement)
    "deep": ("xcom-trpg/units.toml", None, f"a = {DEEP}\n"),
    "long_int": ("xcom-trpg/weapons.toml", None, f"big = {LONG}\n"),
    "negative_damage": ("xcom-trpg/weapons.toml", r"(?m)^damage = \d+", "damage = -5"),
    "negative_ammo": ("xcom-trpg/weapons.toml", r"(?m)^ammo = \d+", "ammo = -1"),
    "negative_stat": ("xcom-trpg/units.toml", r"strength = \d+", "strength = -3"),
    "phases_0": ("missions/eliminate.toml", r"(?m)^max_phases = \d+", "max_phases = 0"),
    "a_million": ("missions/eliminate.toml", r"sectoid = \d+", "sectoid = 1000000"),
    "divide_by_zero": ("xcom-trpg/rulesets.toml", r'(?m)^hp = ".*?"', 'hp = "strength / 0"'),
    "divide_by_a_stat": ("xcom-trpg/rulesets.toml", r'(?m)^stamina = ".*?"', 'stamina = "10 / strength"'),
    "huge_dice": ("xcom-trpg/rulesets.toml", r'(?m)^hp = ".*?"', 'hp = "1000000000d1000000000"'),
    "deep_formula": ("xcom-trpg/rulesets.toml", r'(?m)^hp = ".*?"', 'hp = "' + "(" * 60 + "1" + ")" * 60 + '"'),
}


def _contents(folder: Path) -> dict[str, Path]:
    out = {}
    for name, (file, pattern, new) in CONTENT_EDITS.items():
        root = folder / f"content-{name}"
        shutil.copytree(loader.default_dir(), root)
        target = root / file
        text = target.read_text(encoding="utf-8")
        target.write_text(new + text if pattern is None else re.sub(pattern, new, text, count=1), encoding="utf-8")
        out[name] = root
    for name, make in (("device", lambda p: p.symlink_to("/dev/zero")), ("fifo", os.mkfifo),
                       ("huge", lambda p: p.write_bytes(b"#" * (files.MAX_TEXT + 1)))):
        root = folder / f"content-{name}"
        shutil.copytree(loader.default_dir(), root)
        (root / "xcom-trpg/armor.toml").unlink()
        make(root / "xcom-trpg/armor.toml")
        out[name] = root
    return out


SCENARIO = """ruleset = "xcom-trpg"
[units.anton]
race = "human"
stats = { strength = 7, agility = 4, intelligence = 6, bravery = 6, charisma = 4, luck = 6, psionics = 3 }
weapon = "shotgun"
[units.muton]
race = "muton"
stats = { strength = 9, agility = 6, intelligence = 3, bravery = 7, charisma = 2, luck = 4, psionics = 1 }
[action]
actor = "anton"
"""


def _scenarios(folder: Path) -> dict[str, Path]:
    bodies = {"bravery_without_monster": SCENARIO + 'type = "bravery"\n',
              "special_unknown_stat": SCENARIO + 'type = "special"\nstats = ["telekinesis"]\n',
              "unknown_monster": SCENARIO + 'type = "bravery"\nmonster = "godzilla"\n',
              "strength_a_million": SCENARIO.replace("strength = 7", "strength = 1000000") + 'type = "shoot"\ntarget = "muton"\n',
              "deep": f"a = {DEEP}\n", "long_int": f"a = {LONG}\n"}
    out = {}
    for name, body in bodies.items():
        out[name] = folder / f"{name}.toml"
        out[name].write_text(body)
    os.mkfifo(folder / "fifo.toml")
    (folder / "device.toml").symlink_to("/dev/zero")
    return {**out, "fifo": folder / "fifo.toml", "device": folder / "device.toml"}


def _rosters(folder: Path) -> dict[str, Path]:
    character = ('[[character]]\nname = "Anna"\nrace = "human"\nhp = 61\nhp_roll = "hp 61"\n'
                 'stats = { strength = STR, agility = 4, intelligence = 6, bravery = 6, charisma = 4, luck = 6, '
                 'psionics = 3 }\n')
    out = {}
    for name, make in (("strength_a_million", lambda p: p.write_text(character.replace("STR", "1000000"))),
                       ("deep", lambda p: p.write_text(f"character = {DEEP}\n")),
                       ("long_int", lambda p: p.write_text(character.replace("STR", LONG))),
                       ("device", lambda p: p.symlink_to("/dev/zero")), ("fifo", os.mkfifo)):
        saves = folder / f"saves-{name}"
        saves.mkdir()
        make(saves / "roster.toml")
        out[name] = saves
    return out


def _keymaps(folder: Path) -> dict[str, Path]:
    out = {}
    for name, make in (("deep", lambda p: p.write_text(f"[keys]\nfire = {DEEP}\n")),
                       ("long_int", lambda p: p.write_text(f"[keys]\nfire = {LONG}\n")),
                       ("device", lambda p: p.symlink_to("/dev/zero")), ("fifo", os.mkfifo)):
        out[name] = folder / f"keys-{name}.toml"
        make(out[name])
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[tuple[str, list[str], bool]]:
    """(case id, argv, needs the terminal client) for every reader of every hostile file."""
    folder = tmp_path_factory.mktemp("hostile")
    cases: list[tuple[str, list[str], bool]] = []
    for name, p in _logs(folder).items():
        for reader in (["replay", "{}", "--verify"], ["audit", "{}"], ["audit", "{}", "--stats"],
                       ["audit", "{}", "--record", "2", "--explain"], ["replay", "{}", "--story"],
                       ["simulate", "--resume", "{}"]):
            cases.append((f"log {name}: {reader[0]} {reader[-1]}", [a.format(p) for a in reader], False))
        cases.append((f"log {name}: resume", ["resume", str(p)], True))
        if name not in GOOD_PREFIX:  # the viewer shows a damaged log up to its damage, as it should
            cases.append((f"log {name}: viewer", ["replay", str(p)], True))
    good = folder / "good.jsonl"
    for name, root in _contents(folder).items():
        out = str(folder / f"out-{name}.jsonl")
        for i, reader in enumerate((["content", "check", "{}"], ["--content", "{}", "map"],
                                    ["--content", "{}", "simulate", "--max-turns", "1", "--out", out],
                                    ["--content", "{}", "replay", str(good), "--verify"])):
            cases.append((f"content {name}: {i}", [a.format(root) for a in reader], False))
    for name, p in _scenarios(folder).items():
        cases += [(f"scenario {name}", ["resolve", str(p)], False),
                  (f"scenario {name}: trials", ["resolve", str(p), "--trials", "10"], False)]
    for name, saves in _rosters(folder).items():
        cases += [(f"roster {name}", ["--saves", str(saves), "roster"], False),
                  (f"roster {name}: add", ["--saves", str(saves), "roster", "add", "Bob", "--stats",
                                           "str=7,agi=6,int=5,bra=6,cha=4,luck=6,psi=2"], False),
                  (f"roster {name}: play", ["--saves", str(saves), "play", "--seed", "1"], True)]
    for name, keys in _keymaps(folder).items():
        cases.append((f"keys {name}", ["--saves", str(folder), "play", "--keys", str(keys)], True))
    cases += [("bound trials", ["simulate", "--trials", "10000000"], False),
              ("bound count", ["map", "--count", "1000000"], False),
              ("bound max-turns", ["simulate", "--max-turns", "100000"], False),
              ("bound resolve trials", ["resolve", str(folder / "deep.toml"), "--trials", "100000000"], False),
              ("bound record", ["audit", str(good), "--record", "9999"], False),
              ("bound seed", ["simulate", "--seed", LONG], False)]
    return cases


def _one_line(case: str, code: int, err: str) -> None:
    assert "Traceback" not in err, (case, err)
    assert code in (1, 2), (case, code, err)
    assert err.count("\n") == 1 and err.strip(), (case, err)


def test_each_hostile_file_is_one_line(corpus, capsys, monkeypatch, tmp_path):
    """In-process, the first reader of each file (a client command never: it would start the terminal)."""
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    done = set()
    for case, argv, client in corpus:
        kind = case.split(":")[0]
        if client or kind in done:
            continue
        done.add(kind)
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        _out, err = capsys.readouterr()
        _one_line(case, code, err)
    assert len(done) > 40


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _env(saves: str) -> dict[str, str]:
    return {**os.environ, "XENOTAC_SAVES": saves, "TERM": "dumb", "PYTHONPATH": str(ROOT)}


def _child(argv: list[str], saves: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())", *argv],
                          cwd=ROOT, env=_env(saves), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIME_LIMIT, preexec_fn=_limits)
    return done.returncode, done.stderr


def _batch(cases: list[list[str]], saves: str, folder: Path) -> list[tuple[int, str]]:
    """Many readers in one child (tests/reader_batch.py): each still has its time limit, the child the memory one."""
    folder.mkdir()
    (folder / "cases.json").write_text(json.dumps(cases))
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "reader_batch.py"), str(folder / "cases.json"),
                           str(folder / "results.json"), str(TIME_LIMIT)], cwd=ROOT, env=_env(saves),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIME_LIMIT * len(cases), preexec_fn=_limits)
    assert done.returncode == 0, done.stderr[-2000:]
    return [tuple(r) for r in json.loads((folder / "results.json").read_text())]


BATCHES = 4


@pytest.mark.slow
def test_every_reader_on_every_hostile_file_is_one_line_in_time_and_memory(corpus, tmp_path):
    """Every case under a time and a memory limit: the first of each kind of input (log, content, scenario...), and
    of the terminal client, in a process of its own, the real entry point; the rest in a few batch children."""
    alone, rest, kinds = [], [], set()
    for case, argv, client in corpus:
        kind = (case.split()[0], client)
        (rest if kind in kinds else alone).append((case, argv))
        kinds.add(kind)
    chunks = [rest[i::BATCHES] for i in range(BATCHES)]
    with ThreadPoolExecutor(2) as pool:
        single = pool.map(lambda c: (c[0], *_child(c[1], str(tmp_path))), alone)
        batched = pool.map(lambda i: _batch([argv for _case, argv in chunks[i]], str(tmp_path), tmp_path / f"b{i}"),
                           range(BATCHES))
        results = [*single, *((case, *r) for chunk, out in zip(chunks, batched) for (case, _), r in zip(chunk, out))]
    assert len(alone) >= 8 and len(results) == len(corpus)
    for case, code, err in results:
        _one_line(case, code, err)
