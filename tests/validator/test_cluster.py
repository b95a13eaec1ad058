"""Simulations on a Dask cluster (validator/cluster.py): the records are a local run's, a worker that dies
mid-run included; and --cluster / FUDAYA_CLUSTER on the command line.

distributed is imported plainly, not skipped when missing: the test extra installs it, so CI always runs these.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import distributed
import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator import cluster as cluster_module
from validator import study
from validator.engine.registry import engine_for
from validator.ladder import LadderPlan, climb
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan
from validator.simulate import SimConfig, StopRule, simulate
from validator.variants import VariantStudy

ROOT = Path(__file__).resolve().parents[2]
UNREACHABLE = "tcp://127.0.0.1:1"  # nothing listens on port 1 of this machine


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A scheduler with two single-threaded worker processes (each behind a nanny that restarts it), on loopback."""
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def engine():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))


GREEDY_4P = SimConfig(4, ("greedy",) * 4, 40, seed=3)


def test_the_cluster_plays_the_local_records(engine, address) -> None:
    assert simulate(engine, replace(GREEDY_4P, cluster=address)) == simulate(engine, GREEDY_4P)


def test_a_stop_rule_stops_the_cluster_where_it_stops_a_local_run(engine, address) -> None:
    stop = StopRule(lambda records: sum(0 in match.winners for match in records) >= 4, every=5)
    local = simulate(engine, GREEDY_4P, stop)
    assert len(local) < GREEDY_4P.matches  # the rule did stop it
    assert simulate(engine, replace(GREEDY_4P, cluster=address), stop) == local


def test_a_ladder_on_the_cluster_is_the_local_ladder(engine, address) -> None:
    base = SimulationPlan(2, 30, ("greedy",), seed=5, precision=0.05)
    ladder = LadderPlan(("random", "greedy"), 30, (20, 20), 2)
    assert climb(engine, base, ladder, cluster=address) == climb(engine, base, ladder, workers=1)


def test_a_report_with_table_sizes_and_a_variant_study_on_the_cluster_is_the_local_report(address,
                                                                                         monkeypatch) -> None:
    """sanguosha's report plays every table size from 2 to 10 and its variant study (cut to 6 matches each)."""
    read_study = VariantStudy.from_game
    monkeypatch.setattr(VariantStudy, "from_game", classmethod(
        lambda cls, game: replace(read_study(game), matches=6)))
    game = load_game(DEFAULT_DECKS_DIR, "sanguosha")
    plan = replace(SimulationPlan.from_game(game), matches=6, precision=0.0)
    local = study.simulate_main(game, plan, 1)
    assert local.by_players and local.variants  # the report's parts are there to compare
    assert study.simulate_main(game, plan, 1, address).to_json() == local.to_json()


def test_a_worker_that_dies_mid_run_loses_no_match(engine, address) -> None:
    with distributed.Client(address, set_as_default=False) as client:
        before = client.run(os.getpid)
        victim = sorted(before)[0]

        def die_at_the_third_match() -> None:  # run in the victim's process; its nanny starts a fresh one
            import validator.simulate

            played = validator.simulate.play_match
            count = [0]

            def play_match(*args, **kwargs):
                count[0] += 1
                if count[0] == 3:
                    os._exit(1)
                return played(*args, **kwargs)

            validator.simulate.play_match = play_match

        client.run(die_at_the_third_match, workers=[victim])
        assert simulate(engine, replace(GREEDY_4P, cluster=address)) == simulate(engine, GREEDY_4P)
        client.wait_for_workers(2, timeout=30)  # leave the module's cluster whole
        assert before[victim] not in client.run(os.getpid).values()  # it did die


def test_a_worker_running_other_code_is_refused_by_name(engine, address) -> None:
    def other_code(swap: bool) -> None:
        import validator.cluster

        if swap:
            validator.cluster.real_digest = validator.cluster.code_digest
            validator.cluster.code_digest = lambda engine: "other code"
        else:
            validator.cluster.code_digest = validator.cluster.real_digest

    with distributed.Client(address, set_as_default=False) as client:
        client.run(other_code, True)
        try:
            with pytest.raises(cluster_module.ClusterError, match=r"^worker tcp://127\.0\.0\.1:\d+ runs other fudaya "
                               r"code than the machine that asked \(install the same fudaya on every worker\)$"):
                simulate(engine, replace(GREEDY_4P, cluster=address))
        finally:
            client.run(other_code, False)


def test_workers_need_no_deck_files(tmp_path: Path, address) -> None:
    """The game is loaded where the command runs and sent whole: its folder may be gone before play."""
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", tmp_path / "gogyo")
    copied = engine_for(load_game(tmp_path, "gogyo"))
    shutil.rmtree(tmp_path / "gogyo")
    config = SimConfig(4, ("greedy",) * 4, 12, seed=8)
    assert simulate(copied, replace(config, cluster=address)) == simulate(copied, config)


runner = CliRunner()
SIMULATE = ("simulate", "gogyo", "--players", "4", "--games", "20", "--seed", "2", "--json")


def test_fudaya_cluster_sends_the_command_to_the_cluster(address) -> None:
    local = runner.invoke(app, list(SIMULATE), env={"FUDAYA_CLUSTER": ""})
    remote = runner.invoke(app, list(SIMULATE), env={"FUDAYA_CLUSTER": address})
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout


@pytest.mark.parametrize(("given", "said"), [
    (("--cluster", UNREACHABLE), f"{UNREACHABLE}: no Dask scheduler answered within 1 s"),
    (("--cluster", "http://127.0.0.1:8786"), "http://127.0.0.1:8786: not a Dask scheduler address"),
])
@pytest.mark.parametrize("command", [SIMULATE, ("ladder", "gogyo", "--rungs", "random,greedy", "--matches", "4")])
def test_a_cluster_that_cannot_be_used_is_one_line_and_exit_1(monkeypatch, command, given, said) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    result = runner.invoke(app, [*command, *given], env={"FUDAYA_CLUSTER": ""})
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [result.stderr.strip()] and result.stderr.startswith(said)
    assert not result.stdout


def test_fudaya_cluster_is_the_default_address(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    result = runner.invoke(app, ["build", "gogyo", "--output", str(tmp_path)], env={"FUDAYA_CLUSTER": UNREACHABLE})
    assert result.exit_code == 1 and result.stderr.strip() == f"{UNREACHABLE}: no Dask scheduler answered within 1 s"
    assert not any(tmp_path.iterdir())  # refused before anything was built


def test_without_the_extra_nothing_imports_distributed_and_a_cluster_says_what_to_install() -> None:
    script = ("import sys; sys.modules['distributed'] = sys.modules['dask'] = None\n"
              "import generator.cli, validator.cluster, validator.study\n"
              "try:\n    validator.cluster.check_address('tcp://127.0.0.1:8786')\n"
              "except validator.cluster.ClusterError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ("tcp://127.0.0.1:8786: a cluster needs Dask distributed "
                                   "(pip install 'fudaya[cluster]')")


def test_a_worker_joining_with_other_code_is_refused_by_its_first_chunk(address) -> None:
    run = cluster_module._Run("no game", "gogyo", "other code", GREEDY_4P)
    with distributed.Client(address, set_as_default=False) as client:
        with pytest.raises(cluster_module.ClusterError, match="runs other fudaya code"):
            client.submit(cluster_module._play, b"", run, (0, 1), pure=False).result()


def _at_the_third_match(client: distributed.Client, leave: str) -> None:
    """On every worker, from its third match on: the worker closes ("worker", its nanny too, so nothing starts
    it again) or tells the scheduler to stop ("scheduler")."""

    def install() -> None:
        import validator.simulate

        played = validator.simulate.play_match
        count = [0]

        def play_match(*args, **kwargs):
            count[0] += 1
            if count[0] == 3:
                worker = distributed.get_worker()
                if leave == "worker":
                    worker.loop.add_callback(worker.close, nanny=True, executor_wait=False)
                else:
                    worker.loop.add_callback(worker.scheduler.terminate)
            return played(*args, **kwargs)

        validator.simulate.play_match = play_match

    client.run(install)


@pytest.mark.parametrize(("leave", "said"), [("worker", r"no worker left to play \(all stopped or died\)"),
                                             ("scheduler", "the connection to the scheduler was lost while playing")])
def test_a_cluster_whose_workers_or_scheduler_leave_mid_run_is_one_error(engine, monkeypatch, leave, said) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as local, \
            distributed.Client(local.scheduler_address, set_as_default=False) as client:
        _at_the_third_match(client, leave)
        with pytest.raises(cluster_module.ClusterError, match=said):
            simulate(engine, replace(GREEDY_4P, matches=400, cluster=local.scheduler_address))


def test_a_chunk_whose_data_died_with_the_last_worker_waits_for_a_worker_not_for_the_connection(monkeypatch) -> None:
    """Dask marks a played chunk "lost" when the worker holding it leaves, and plays it again on the next
    worker: that is no lost connection, and with no worker coming it ends as "no worker left"."""
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 0.2)
    monkeypatch.setattr(cluster_module, "WAIT_SLICE", 0.05)

    class LostChunk:
        status = "lost"

        def result(self, timeout: float) -> None:
            raise TimeoutError

    class NoWorkers:
        def nthreads(self) -> dict[str, int]:
            return {}

    with pytest.raises(cluster_module.ClusterError, match=r"no worker left to play \(all stopped or died\)"):
        cluster_module._result(NoWorkers(), "tcp://127.0.0.1:8786", LostChunk())
