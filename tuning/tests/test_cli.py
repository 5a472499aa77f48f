"""The command line, in-process (`--serial`) so no cluster is started."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, "-m", "kibitz_tuning", *args], cwd=HERE,
                          capture_output=True, text=True, check=False)


def test_sprt_command_prints_batches_and_a_verdict(exe):
    out = run("sprt", "--serial", "--kibitz", exe, "--base", "random",
              "--new", "search:nodes=300", "--batch-games", "2", "--max-games", "40")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("result: ") and "H1 accepted" in lines[-1]
    assert any(ln.startswith("games ") and ln.endswith("batch 0") for ln in lines)


def test_spsa_command_writes_csv_and_refuses_a_foreign_resume(exe, tmp_path):
    csv = tmp_path / "t.csv"
    args = ["spsa", "--serial", "--kibitz", exe, "--spec", "search:nodes=300",
            "--param", "fish:0:100:8", "--iterations", "1", "--batches", "1", "--csv", str(csv)]
    out = run(*args)
    assert out.returncode == 0, out.stderr
    assert "final values: --param fish=" in out.stdout
    assert len(csv.read_text().splitlines()) == 3
    other_seed = run(*args, "--resume", "--iterations", "2", "--seed", "9")
    assert other_seed.returncode != 0 and "--seed" in other_seed.stderr


def test_spsa_without_a_known_range_is_an_error(exe):
    out = run("spsa", "--serial", "--kibitz", exe, "--spec", "search:nodes=300",
              "--param", "surely_not_a_param", "--iterations", "1")
    assert out.returncode != 0 and "surely_not_a_param" in out.stderr


def test_bad_spec_and_missing_binary_are_one_line_errors(exe):
    bad = run("sprt", "--serial", "--kibitz", exe, "--base", "random",
              "--new", "search:nodes=300,param.no_such_param=1", "--max-games", "4")
    assert bad.returncode == 1
    assert bad.stderr.startswith("error: ") and "no_such_param" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = run("sprt", "--serial", "--kibitz", "/nonexistent/kibitz", "--base", "random",
                  "--new", "random")
    assert missing.returncode != 0 and "no kibitz binary" in missing.stderr
