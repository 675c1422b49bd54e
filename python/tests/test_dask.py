"""One path past one machine: the package inside a Dask job over many files, on a
local cluster of two worker processes, gives the games the command line gives.

The command line is ``$XQSPEC_BIN`` (CI sets it), else a built ``target/*/xqspec``;
the test is skipped only when there is neither. The games are the repository's
records (the master game of ``xqspec web --bench``, the hostile files of
``tests/data/records``) and, when present, the shared master games of
``/work/shared/data/games`` (or ``$XQSPEC_GAMES``)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import xqspec

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("XQSPEC_GAMES", "/work/shared/data/games"))

distributed = pytest.importorskip("dask.distributed")


def xqspec_bin():
    env = os.environ.get("XQSPEC_BIN")
    if env:
        assert Path(env).is_file(), f"XQSPEC_BIN={env} is not a file"
        return env
    for profile in ("release", "debug", "dist"):
        p = ROOT / "target" / profile / "xqspec"
        if p.is_file():
            return str(p)
    pytest.skip("no xqspec command line: build it or set XQSPEC_BIN")


def game_files(tmp_path):
    files = [ROOT / "src" / "cli" / "web" / "bench-game.pgn"]
    files += sorted((ROOT / "tests" / "data" / "records").glob("*.pgn"))
    if SHARED.is_dir():
        files += sorted(SHARED.glob("*.pgn"))
    # Problems reported per file, the rest processed: a folder, a missing file, junk.
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(bytes(range(256)) * 4)
    files += [tmp_path, tmp_path / "missing.pgn", junk]
    return [str(f) for f in files]


def command_line(files, edition):
    out = subprocess.run([xqspec_bin(), "adjudicate", "--json", "--edition", edition, *files],
                         capture_output=True, text=True, timeout=600)
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert lines and "summary" in lines[-1], out.stderr
    return lines[:-1], lines[-1]["summary"]


@pytest.mark.parametrize("edition", ["cxa-2020", "cxa-1999"])
def test_dask_local_cluster_adjudicates_as_the_command_line(tmp_path, edition):
    import xqspec.dask_jobs as jobs

    files = game_files(tmp_path)
    expected, summary = command_line(files, edition)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = jobs.adjudicate_files(client, files, edition=edition)
        # Both workers took part.
        assert len(client.scheduler_info()["workers"]) == 2
        shipped = jobs.adjudicate_texts(
            client, [(f, Path(f).read_bytes()) for f in files if Path(f).is_file()],
            edition=edition, files_per_task=2)
    assert got == expected
    assert [i for i in expected if "file_error" not in i] == shipped
    games = [i for i in got if "result" in i or "error" in i]
    assert len(games) == summary["games"]
    assert sum(1 for i in games if i.get("disagrees")) == summary["disagree with the record"]
    # The same call in this process gives the same items.
    assert xqspec.adjudicate_files(files, edition=edition) == expected
