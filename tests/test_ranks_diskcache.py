"""The disk cache: its folder (BACCARAT_CACHE, else the platform's), files checked by their
checksum, bounded by count and bytes (least recently used first), cleared of the project's
files only; `baccarat cache [--clear]`."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from clirun import one_line_error, run

from analyzer.ranks import diskcache

KEYS = [f"{i:x}" * 64 for i in range(10)]  # hex content keys, one per letter


def _aged(path: Path, age: int) -> None:
    """Mark `path` as last used `age` hours ago."""
    when = (os.path.getmtime(path) - 3600 * age) * 10**9
    os.utime(path, ns=(int(when), int(when)))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_folder_is_moved_by_the_variable_else_the_platforms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path / "mine"))
    assert diskcache.cache_dir() == tmp_path / "mine"
    assert diskcache.cache_path("plans", KEYS[1]) == tmp_path / "mine" / f"plans-{'1' * 24}.npz"
    monkeypatch.setenv("BACCARAT_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert diskcache.cache_dir() == tmp_path / "xdg" / "baccarat-analyzer"
    assert diskcache.cache_dir().name in ("baccarat-analyzer", "Cache")


def test_a_file_reads_back_only_whole_and_for_its_key(folder: Path) -> None:
    diskcache.write_cache_file("plans", KEYS[1], b"payload")
    assert diskcache.read_cache_file("plans", KEYS[1]) == b"payload"
    path = diskcache.cache_path("plans", KEYS[1])
    good = path.read_bytes()
    for bad in (good[:-1], good + b"!", good.replace(b"payload", b"paylobd"), good.replace(b"1", b"2", 30)):
        path.write_bytes(bad)
        assert diskcache.read_cache_file("plans", KEYS[1]) is None
    path.write_bytes(good)
    other = KEYS[1][:24] + "2" * 40  # the same file name, another key
    assert diskcache.read_cache_file("plans", other) is None


def test_the_cache_is_bounded_by_count_least_recently_used_first(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diskcache, "CACHE_FILES", 3)
    for age, key in zip((5, 4, 3), KEYS[1:4], strict=True):
        diskcache.write_cache_file("plans", key, b"x" * 100)
        _aged(diskcache.cache_path("plans", key), age)
    assert diskcache.read_cache_file("plans", KEYS[1]) is not None  # the oldest, now just used
    diskcache.write_cache_file("coups", KEYS[4], b"y" * 100)
    left = {path.name for path in folder.iterdir()}
    assert left == {diskcache.cache_path(*item).name for item in
                    [("plans", KEYS[1]), ("plans", KEYS[3]), ("coups", KEYS[4])]}  # fmt: skip


def test_the_cache_is_bounded_by_bytes(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    size = len(b"baccarat-cache 1 ") + 64 + 1 + 64 + 1 + 1000  # one file: its line and payload
    monkeypatch.setattr(diskcache, "CACHE_BYTES", 3 * size - 1)
    for age, key in enumerate(KEYS[1:4]):
        diskcache.write_cache_file("plans", key, b"x" * 1000)
        _aged(diskcache.cache_path("plans", key), 10 - age)
    assert sorted(path.stat().st_size for path in folder.iterdir()) == [size, size]
    assert not diskcache.cache_path("plans", KEYS[1]).exists()  # the least recently used went
    diskcache.write_cache_file("plans", KEYS[5], b"z" * (3 * size))  # bigger than the bound: not kept
    assert not diskcache.cache_path("plans", KEYS[5]).exists()
    assert diskcache.cache_info().bytes == 2 * size <= diskcache.CACHE_BYTES


def test_clear_removes_the_projects_files_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diskcache, "CACHE_FILES", 2)
    diskcache.write_cache_file("plans", KEYS[1], b"x" * 10)
    diskcache.write_cache_file("coups", KEYS[2], b"y" * 20)
    ours = {"coups-0123abcd.bin": b"an older version's", f".plans-{'a' * 24}.npz.k2j_x9.tmp": b"unfinished"}
    others = {"notes.txt": b"mine", "plans-notes.npz": b"", "coups-0123abcd.bin.bak": b"", "x.tmp": b""}
    for name, data in {**ours, **others}.items():
        (folder / name).write_bytes(data)
        _aged(folder / name, 100)
    (folder / ("plans-" + "b" * 24 + ".npz")).mkdir()  # a folder of a cache file's name
    diskcache.write_cache_file("plans", KEYS[3], b"z" * 30)  # bounds the cache: others stay
    assert {*others, "plans-" + "b" * 24 + ".npz"} <= {path.name for path in folder.iterdir()}
    info = diskcache.cache_info()
    assert info.files == 3 and info.folder == folder  # two cache files and the unfinished one
    removed = diskcache.clear_cache()
    assert removed == diskcache.CacheFiles(folder, info.files, info.bytes)
    assert {path.name for path in folder.iterdir()} == {*others, "plans-" + "b" * 24 + ".npz"}
    assert diskcache.clear_cache() == diskcache.CacheFiles(folder, 0, 0)
    shutil.rmtree(folder)
    assert diskcache.cache_info() == diskcache.CacheFiles(folder, 0, 0)  # no folder: nothing cached


def test_the_code_version_is_the_source(tmp_path: Path) -> None:
    root = Path(diskcache.__file__).resolve().parents[1]
    shutil.copytree(root / "cards", tmp_path / "cards", ignore=shutil.ignore_patterns("__pycache__"))
    before = diskcache.sources_digest(tmp_path, ("cards",))
    assert before == diskcache.sources_digest(root, ("cards",))
    engine = tmp_path / "cards" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert diskcache.sources_digest(tmp_path, ("cards",)) != before
    assert diskcache.code_version("core", "ranks") != diskcache.code_version("core", "ranks", "cards")


def test_the_cache_command(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    diskcache.write_cache_file("plans", KEYS[1], b"x" * 10)
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    size = diskcache.cache_path("plans", KEYS[1]).stat().st_size
    code, out, err = run(capsys, "cache")
    assert code == 0 and err == ""
    assert out.splitlines()[:2] == [f"Cache folder: {folder}", f"Files: 1 ({size:,} bytes)"]
    assert f"at most {diskcache.CACHE_FILES:,} files and {diskcache.CACHE_BYTES:,} bytes" in out
    code, out, _ = run(capsys, "cache", "--clear", "--format", "json")
    assert code == 0
    assert json.loads(out) == {
        "folder": str(folder), "files": 0, "bytes": 0, "removed": {"files": 1, "bytes": size},
        "max_files": diskcache.CACHE_FILES, "max_bytes": diskcache.CACHE_BYTES,
        "version": json.loads(out)["version"],
    }  # fmt: skip
    assert [path.name for path in folder.iterdir()] == ["notes.txt"]
    code, out, _ = run(capsys, "cache", "--clear")
    assert code == 0 and "Removed: 0 files (0 bytes)" in out


def test_the_cache_command_refuses_bad_input(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    diskcache.write_cache_file("plans", KEYS[1], b"x" * 10)
    assert "--format 'csv': use one of table, json" in one_line_error(capsys, "cache", "--format", "csv")
    assert "--clear is given twice" in one_line_error(capsys, "cache", "--clear", "--clear")
    assert diskcache.cache_info().files == 1  # refused before anything is removed
    tmp_path = folder.parent
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path / "file"))
    err = one_line_error(capsys, "cache", "--clear")
    assert f"the cache folder {str(tmp_path / 'file')!r} cannot be read: it is not a folder" in err
