"""Record databases past one machine: the package inside a Dask job.

Each task adjudicates (or replays) a few files with the same call as on one
machine, ``xqspec.adjudicate_files``; the items come back in the order of the
files, exactly as ``xqspec adjudicate --json FILES`` prints them (its summary line
apart). A file that cannot be read, a folder or binary junk is an item of its own,
never a failed task.

    from dask.distributed import Client
    import xqspec.dask_jobs as jobs

    client = Client("tcp://scheduler:8786")        # or LocalCluster(...)
    items = jobs.adjudicate_files(client, paths, files_per_task=8)

The workers read the paths themselves: give paths every worker can read (a shared
file system), or ship the bytes with ``adjudicate_texts``.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import xqspec


def _chunks(seq: Sequence[Any], n: int) -> List[Sequence[Any]]:
    n = max(1, int(n))
    return [seq[i:i + n] for i in range(0, len(seq), n)]


def _adjudicate_paths(paths: Sequence[str], edition: Optional[str], encoding: Optional[str]) -> List[Dict[str, Any]]:
    return xqspec.adjudicate_files(list(paths), edition=edition, encoding=encoding)


def _adjudicate_texts(texts: Sequence[Tuple[str, bytes]], edition: Optional[str], encoding: Optional[str]) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for name, data in texts:
        out += xqspec.adjudicate_pgn(data, name=name, edition=edition, encoding=encoding)
    return out


def _replay_paths(paths: Sequence[str], edition: Optional[str], encoding: Optional[str], to: Optional[str]) -> List[Dict[str, Any]]:
    return xqspec.replay_files(list(paths), edition=edition, encoding=encoding, to=to)


def _gather(client: Any, futures: Iterable[Any]) -> List[Dict[str, Any]]:
    return [item for chunk in client.gather(list(futures)) for item in chunk]


def adjudicate_files(client: Any, paths: Sequence[str], *, edition: Optional[str] = None,
                     encoding: Optional[str] = None, files_per_task: int = 1) -> List[Dict[str, Any]]:
    """``xqspec.adjudicate_files(paths)`` run as Dask tasks of ``files_per_task``
    files each on ``client``'s cluster; the items in the order of ``paths``."""
    paths = [str(p) for p in paths]
    futures = client.map(_adjudicate_paths, _chunks(paths, files_per_task),
                         edition=edition, encoding=encoding, pure=False)
    return _gather(client, futures)


def adjudicate_texts(client: Any, texts: Sequence[Tuple[str, bytes]], *, edition: Optional[str] = None,
                     encoding: Optional[str] = None, files_per_task: int = 1) -> List[Dict[str, Any]]:
    """The same for records shipped as ``(name, bytes)`` pairs, for workers that do
    not see the files."""
    futures = client.map(_adjudicate_texts, _chunks(list(texts), files_per_task),
                         edition=edition, encoding=encoding, pure=False)
    return _gather(client, futures)


def replay_files(client: Any, paths: Sequence[str], *, edition: Optional[str] = None,
                 encoding: Optional[str] = None, to: Optional[str] = None,
                 files_per_task: int = 1) -> List[Dict[str, Any]]:
    """``xqspec.replay_files(paths)`` as Dask tasks; the items in the order of ``paths``."""
    paths = [str(p) for p in paths]
    futures = client.map(_replay_paths, _chunks(paths, files_per_task),
                         edition=edition, encoding=encoding, to=to, pure=False)
    return _gather(client, futures)
