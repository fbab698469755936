"""Submissions: the manifest names its bad values, archives that reach outside are refused, versions."""

from __future__ import annotations

import io
import os
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
from rage_referee.submissions import archive
from rage_referee.submissions.archive import ArchiveError, unpack
from rage_referee.submissions.manifest import ManifestError, load_manifest
from rage_referee.submissions.store import outcome_file, store_submission
from rage_referee.submissions.version import content_version

GOOD = 'name = "my-bot"\nruntime = "python"\nrun = "python bot.py"\n'


def folder_with(tmp_path: Path, manifest: str) -> Path:
    (tmp_path / "rage-bot.toml").write_text(manifest)
    return tmp_path


def test_a_good_manifest_loads(tmp_path: Path) -> None:
    manifest = load_manifest(folder_with(tmp_path, GOOD + 'build = "python -m compileall ."\n'))
    assert (manifest.name, manifest.runtime, manifest.run) == ("my-bot", "python", "python bot.py")
    assert manifest.build == "python -m compileall ."


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ('runtime = "python"\nrun = "python bot.py"\n', "rage-bot.toml: name: missing"),
        (GOOD.replace("my-bot", "../evil"), "rage-bot.toml: name: letters, digits"),
        (GOOD.replace("my-bot", "x" * 65), "rage-bot.toml: name: letters, digits"),
        (GOOD.replace('"python"\n', '"java"\n'), "rage-bot.toml: runtime: Input should be 'python', 'node' or"),
        (GOOD.replace('"python bot.py"', '""'), "rage-bot.toml: run: must not be empty"),
        (GOOD.replace('"python bot.py"', '"python bot.py\\nrm -rf /"'), "rage-bot.toml: run: must be one line"),
        (GOOD.replace('"python bot.py"', '"python \'bot.py"'), "rage-bot.toml: run: cannot be split"),
        (GOOD.replace('"python bot.py"', '"python bot.py --port {port}"'), "rage-bot.toml: run: a submitted bot"),
        (GOOD.replace('"python bot.py"', '"node bot.js"'), "rage-bot.toml: run: a python bot runs with python"),
        (GOOD + 'build = "' + "x" * 1001 + '"\n', "rage-bot.toml: build: is 1001 characters long"),
        (GOOD + "port = 5\n", "rage-bot.toml: unknown setting 'port'"),
        (GOOD + "name = 2\n", "rage-bot.toml: not valid TOML"),
        (GOOD + "x = " + "[" * 30_000 + "]" * 30_000 + "\n", "rage-bot.toml: arrays or tables nested too deeply"),
        (
            GOOD + 'build = "python b.py /other/ref.sqlite"\n',
            "rage-bot.toml: build: names '/other/ref.sqlite', outside",
        ),
    ],
)
def test_a_bad_manifest_names_the_field(tmp_path: Path, manifest: str, message: str) -> None:
    with pytest.raises(ManifestError) as raised:
        load_manifest(folder_with(tmp_path, manifest))
    assert str(raised.value).startswith(message), str(raised.value)


def test_a_folder_without_a_manifest_says_so(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"rage-bot\.toml: missing"):
        load_manifest(tmp_path)


def tar_of(tmp_path: Path, *members: tuple[tarfile.TarInfo, bytes]) -> Path:
    path = tmp_path / "bot.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            info.size = len(data) if info.isfile() else 0
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return path


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


def test_a_good_tar_unpacks_and_its_version_follows_its_content(tmp_path: Path) -> None:
    good = tar_of(tmp_path, (member("rage-bot.toml"), GOOD.encode()), (member("bot.py"), b"print(1)\n"))
    unpack(good, tmp_path / "a")
    assert load_manifest(tmp_path / "a").name == "my-bot"
    version = content_version(tmp_path / "a")
    unpack(good, tmp_path / "b")
    assert content_version(tmp_path / "b") == version and version.startswith("sha256:")
    (tmp_path / "b" / "bot.py").write_text("print(2)\n")
    assert content_version(tmp_path / "b") != version


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (member("/etc/cron.d/evil"), "an absolute path"),
        (member("../../evil.py"), "a path with '..'"),
        (member("bot/../../evil.py"), "a path with '..'"),
        (member("link", tarfile.SYMTYPE, "/etc/passwd"), "a link out of the archive"),
        (member("sub/link", tarfile.SYMTYPE, "../../secret"), "a link out of the archive"),
        (member("hard", tarfile.LNKTYPE, "rage-bot.toml"), "a hard link"),
        (member("dev", tarfile.CHRTYPE), "a device file"),
        (member("fifo", tarfile.FIFOTYPE), "a device file"),
    ],
)
def test_a_tar_reaching_outside_is_refused(tmp_path: Path, entry: tarfile.TarInfo, message: str) -> None:
    bad = tar_of(tmp_path, (member("rage-bot.toml"), GOOD.encode()), (entry, b"x"))
    with pytest.raises(ArchiveError) as raised:
        unpack(bad, tmp_path / "out")
    assert message in str(raised.value) and repr(entry.name) in str(raised.value)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bot.tar.gz", "out"]  # nothing beside


def test_a_relative_link_inside_the_archive_is_kept(tmp_path: Path) -> None:
    good = tar_of(tmp_path, (member("bot.py"), b"x"), (member("sub/link", tarfile.SYMTYPE, "../bot.py"), b""))
    unpack(good, tmp_path / "out")
    assert (tmp_path / "out" / "sub" / "link").read_text() == "x"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([member("sub", tarfile.SYMTYPE, "."), member("sub/evil.py")], "'sub/evil.py': a path through the link 'sub'"),
        ([member("sub/evil.py"), member("sub", tarfile.SYMTYPE, ".")], "'sub/evil.py': a path through the link 'sub'"),
        (
            [member("deep", tarfile.SYMTYPE, "a/b"), member("up", tarfile.SYMTYPE, "deep/../..")],
            "'up': a link out of the archive, to 'deep/../..'",
        ),
        ([member("x"), member("x", tarfile.SYMTYPE, "bot.py")], "'x': a second entry at the path of a link"),
    ],
)
def test_a_tar_writing_through_its_own_links_is_refused(
    tmp_path: Path, entries: list[tarfile.TarInfo], message: str
) -> None:
    bad = tar_of(tmp_path, (member("bot.py"), b"x"), *((entry, b"x") for entry in entries))
    with pytest.raises(ArchiveError) as raised:
        unpack(bad, tmp_path / "out")
    assert message in str(raised.value)
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == []  # refused before anything is written


@pytest.mark.parametrize(
    "entry",
    [
        member("a/" * 32_000 + "x"),
        member("x", tarfile.SYMTYPE, "a/" * 32_000),
        member("d/" * 65 + "x"),
        member("n" * 1025),
    ],
    ids=["deep name", "deep link", "65 folders", "long name"],
)
def test_a_name_too_long_or_deep_is_refused_at_once(tmp_path: Path, entry: tarfile.TarInfo) -> None:
    """Each check walks a name's folders: a name 32,000 folders deep took 6 s, and a 542-byte archive of three
    held the referee's upload thread 17 s (5,000 entries: hours); unpacked, it ended in a RecursionError."""
    bad = tmp_path / "bot.tar.gz"
    with tarfile.open(bad, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        entry.size = 1 if entry.isfile() else 0
        tar.addfile(entry, io.BytesIO(b"x") if entry.isfile() else None)
    started = time.monotonic()
    with pytest.raises(ArchiveError, match="longer than 1,024 characters or 64 folders deep"):
        unpack(bad, tmp_path / "out")
    assert time.monotonic() - started < 2.0  # 6 s a name before


def test_a_chain_of_long_links_does_not_reach_outside(tmp_path: Path) -> None:
    """CVE-2025-4517: links through links whose paths pass the system's longest path defeat the check of
    ``filter="data"`` on Python before 3.11.13, and the last entry was written wherever its path pointed."""
    folder, steps, path = "d" * 247, "abcdefghijklmnop", ""
    entries = []
    for step in steps:
        entries += [member(f"{path}{folder}", tarfile.DIRTYPE), member(f"{path}{step}", tarfile.SYMTYPE, folder)]
        path += f"{folder}/"
    long_link = "/".join(steps) + "/" + "l" * 254
    entries += [
        member(long_link, tarfile.SYMTYPE, "../" * len(steps)),
        member("escape", tarfile.SYMTYPE, long_link + "/.." * len(steps)),
        member("escape" + str(tmp_path / "written")),
    ]
    bad = tmp_path / "bot.tar.gz"
    with tarfile.open(bad, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for entry in entries:
            entry.size = 1 if entry.isfile() else 0
            tar.addfile(entry, io.BytesIO(b"x") if entry.isfile() else None)
    with pytest.raises(ArchiveError, match="longer than 1,024 characters"):  # its paths, past a system's longest
        unpack(bad, tmp_path / "out")
    assert not (tmp_path / "written").exists()


def zip_of(tmp_path: Path, *files: tuple[str | zipfile.ZipInfo, bytes]) -> Path:
    path = tmp_path / "bot.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zip_file:
        for name, data in files:
            zip_file.writestr(name, data)
    return path


def test_a_zip_bomb_stops_at_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "MAX_BYTES", 4 * 1024 * 1024)
    bomb = zip_of(tmp_path, ("rage-bot.toml", GOOD.encode()), ("zeros", bytes(64 * 1024 * 1024)))
    assert bomb.stat().st_size < 1024 * 1024
    with pytest.raises(ArchiveError, match=r"'zeros': unpacks past 4 MiB in all"):
        unpack(bomb, tmp_path / "out")
    assert (tmp_path / "out" / "zeros").stat().st_size <= 4 * 1024 * 1024


def test_too_many_entries_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "MAX_FILES", 10)
    many = zip_of(tmp_path, *((f"f{k}", b"") for k in range(11)))
    with pytest.raises(ArchiveError, match="more than 10 entries"):
        unpack(many, tmp_path / "out")


@pytest.mark.parametrize(
    ("name", "message"), [("/abs.py", "an absolute path"), ("../up.py", "a path with '..'"), ("a\\b", "not a plain")]
)
def test_a_zip_reaching_outside_is_refused(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(ArchiveError, match=message):
        unpack(zip_of(tmp_path, (name, b"x")), tmp_path / "out")


def test_a_zip_symlink_is_refused(tmp_path: Path) -> None:
    link = zipfile.ZipInfo("link")
    link.external_attr = (0o120777) << 16
    with pytest.raises(ArchiveError, match="'link': a link or special file"):
        unpack(zip_of(tmp_path, (link, b"/etc/passwd")), tmp_path / "out")


def test_not_an_archive_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bot.zip").write_bytes(b"not a zip")
    with pytest.raises(ArchiveError, match=r"bot\.zip: not a readable \.zip"):
        unpack(tmp_path / "bot.zip", tmp_path / "out")
    with pytest.raises(ArchiveError, match=r"expected a \.tar\.gz, \.tgz or \.zip"):
        unpack(tmp_path / "bot.rar", tmp_path / "out2")


@pytest.mark.parametrize("form", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT], ids=["gnu", "pax"])
def test_a_huge_extended_header_is_refused_before_it_is_read(tmp_path: Path, form: int) -> None:
    path = tmp_path / "bot.tar.gz"  # a 16 MiB upload of such headers made the referee read 16 GB into memory
    with tarfile.open(path, "w:gz", format=form) as tar:
        tar.addfile(member("a" * 2 * 1024 * 1024), io.BytesIO(b""))
    with pytest.raises(ArchiveError, match=r"^an extended header \(a long name or link, or pax attributes\) of "):
        unpack(path, tmp_path / "out")


def test_a_sparse_file_is_refused(tmp_path: Path) -> None:
    path = tar_of(tmp_path, (member("holes", tarfile.GNUTYPE_SPARSE), b""))
    with pytest.raises(ArchiveError, match=r"^'holes': a sparse file"):
        unpack(path, tmp_path / "out")


def test_a_name_too_long_for_the_disk_is_refused_in_a_short_line(tmp_path: Path) -> None:
    path = tar_of(tmp_path, (member("a" * 5000 + "\x1b[2J"), b"x"))
    with pytest.raises(ArchiveError) as refused:
        unpack(path, tmp_path / "out")
    assert len(str(refused.value)) < 400 and "\x1b" not in str(refused.value), str(refused.value)[:400]


def test_a_manifest_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "rage-bot.toml")  # a build may leave one: the referee reads the manifest when a league starts
    outcome: list[str] = []

    def load() -> None:
        try:
            load_manifest(tmp_path)
        except ManifestError as error:
            outcome.append(str(error))

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # it waits for a writer: give it one, so the thread ends
        os.close(os.open(tmp_path / "rage-bot.toml", os.O_WRONLY | os.O_NONBLOCK))
    assert outcome == ["rage-bot.toml: not a regular file"]


def test_a_manifest_linked_out_of_its_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.toml").write_text(GOOD)
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "rage-bot.toml").symlink_to(tmp_path / "elsewhere.toml")  # or to /dev/zero
    with pytest.raises(ManifestError, match=r"^rage-bot\.toml: not a regular file"):
        load_manifest(tmp_path / "bot")


def test_a_huge_manifest_is_refused_unread(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, GOOD + "#" * (1024 * 1024) + "\n")
    with pytest.raises(ManifestError, match=r"^rage-bot\.toml: larger than 65,536 bytes"):
        load_manifest(folder)


def test_a_version_whose_build_never_finished_is_stored_afresh(tmp_path: Path) -> None:
    # a build killed halfway left its folder, changed, without its outcome: it was taken as the version
    (tmp_path / "bot").mkdir()
    folder = folder_with(tmp_path / "bot", GOOD)
    (folder / "bot.py").write_text("print('mine')\n")
    half = store_submission(folder, tmp_path / "versions")
    (half.folder / "bot.py").write_text("print('tampered')\n")
    again = store_submission(folder, tmp_path / "versions")
    assert again.folder == half.folder and (again.folder / "bot.py").read_text() == "print('mine')\n"
    outcome_file(again.folder).write_text("{}")  # built: the version is kept as it is
    (again.folder / "built.txt").write_text("x")
    assert (store_submission(folder, tmp_path / "versions").folder / "built.txt").exists()
