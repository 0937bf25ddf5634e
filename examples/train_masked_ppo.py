"""Train a masked-PPO agent on Mustamaija for a few minutes on CPU and plot its loss rate as it learns.

Needs the ``train`` extra (``pip install 'mustamaija[train]'``: sb3-contrib, a
CPU build of torch, matplotlib). The agent plays one seat of a 3-player
standard deal; half of its training tables hold two random players, half two
heuristic players. Every ``--eval-every`` seconds of training it plays the
same fixed evaluation deals against two random and against two heuristic
opponents (greedy masked actions) and records its loss rate; at the end the
curve is drawn next to the parity line (1/3)::

    python examples/train_masked_ppo.py --minutes 5 --out ppo-loss-rate.png

The numbers and figure in docs/research.md come from this command.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from mustamaija.envs.gym_env import SingleAgentEnv

PLAYERS = 3


def evaluate(model: MaskablePPO, opponents: str, deals: int, seed: int) -> float:
    """Return the agent's loss rate over ``deals`` fixed deals (the same every call) against ``opponents``."""
    env = SingleAgentEnv(players=PLAYERS, opponents=opponents)
    losses = finished = 0
    for i in range(deals):
        obs, _ = env.reset(seed=seed + i)
        done = False
        reward: Any = 0.0
        truncated = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        if not truncated:
            finished += 1
            losses += reward < 0
    return losses / finished if finished else 0.0


def main() -> None:
    """Train, evaluate as training goes, write the curve as JSON and draw it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time, not counting evaluation (default 5)")
    parser.add_argument("--eval-every", type=float, default=30.0, help="seconds of training between evaluations")
    parser.add_argument("--eval-deals", type=int, default=300, help="evaluation deals per opponent kind (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="ppo-loss-rate.png", help="figure file (a .json with the numbers is written next to it)")
    args = parser.parse_args()

    torch.set_num_threads(1)
    opponents = ["random", "heuristic"] * 2
    venv = DummyVecEnv([lambda o=o: SingleAgentEnv(players=PLAYERS, opponents=o) for o in opponents])
    venv.seed(args.seed)
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, learning_rate=3e-4, gamma=1.0, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, verbose=0, device="cpu")
    curve: list[dict[str, float]] = []

    def record(seconds: float) -> None:
        point = {"train_seconds": seconds, "timesteps": float(model.num_timesteps),
                 "vs_random": evaluate(model, "random", args.eval_deals, 10_000),
                 "vs_heuristic": evaluate(model, "heuristic", args.eval_deals, 20_000)}
        curve.append(point)
        print(json.dumps(point), flush=True)

    trained = 0.0
    record(trained)
    while trained < args.minutes * 60:
        start = time.perf_counter()
        while time.perf_counter() - start < args.eval_every:
            model.learn(total_timesteps=2048, reset_num_timesteps=False)
        trained += time.perf_counter() - start
        record(trained)

    with open(args.out.rsplit(".", 1)[0] + ".json", "w", encoding="utf-8") as f:
        json.dump({"players": PLAYERS, "eval_deals": args.eval_deals, "curve": curve}, f, indent=1)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    minutes = np.array([p["train_seconds"] for p in curve]) / 60
    ax.plot(minutes, [p["vs_random"] for p in curve], marker="o", label="vs 2 random players")
    ax.plot(minutes, [p["vs_heuristic"] for p in curve], marker="s", label="vs 2 heuristic players")
    ax.axhline(1 / PLAYERS, color="grey", linestyle="--", label="parity (1/3)")
    ax.set_xlabel("training time on one CPU core (minutes)")
    ax.set_ylabel("loss rate of the PPO seat")
    ax.set_title(f"Masked PPO, 3-player Mustamaija ({args.eval_deals} fixed deals per point)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"figure written to {args.out}")


if __name__ == "__main__":
    main()
