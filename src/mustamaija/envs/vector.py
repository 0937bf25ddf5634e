"""Many deals of the single-agent environment stepped in one call: a Gymnasium ``VectorEnv`` for any game.

:class:`VectorSingleAgentEnv` holds ``num_envs`` deals of
:class:`~mustamaija.envs.gym_env.SingleAgentEnv` (the learner's seat against
bots, every argument as there) and steps them in one Python loop. Each deal
is played by the single environment's own methods, so with the same seeds
its observations, rewards, terminations, truncations, masks and infos are
exactly those of ``gymnasium.vector.SyncVectorEnv`` over single
environments (the tests check this for every game). What it saves is the
work around each deal, which a vector of separate environments pays once per
deal and step: a new observation array per deal then a batch stacked from
them, an info dict per deal merged key by key into the batch's, a mask array
per deal for ``call("action_masks")``. Here each deal's view is encoded
straight into its row of one preallocated batch, the infos are built as
arrays, and :meth:`VectorSingleAgentEnv.action_masks` unpacks every deal's
bit mask in one numpy call.

Autoreset follows Gymnasium 1.x (``metadata["autoreset_mode"]``, a
:class:`gymnasium.vector.AutoresetMode`): by default ``NEXT_STEP`` (a deal
that ended is dealt again on the next ``step``, whose action for it is
ignored and whose reward, termination and truncation for it are 0 and
false); ``SAME_STEP`` (the new deal at once, the last observation and info
in ``info["final_obs"]`` and ``info["final_info"]``) and ``DISABLED``
(reset deals yourself with ``reset(options={"reset_mask": ...})``), as in
``SyncVectorEnv``.

``gymnasium.make_vec(id, num_envs=...)`` makes it for a game's Gymnasium id
(its vector entry point), as does :func:`mustamaija.envs.make_vector_env` for
an environment name.

>>> import numpy as np
>>> from mustamaija.core.registry import DEFAULT_GAME
>>> vec = VectorSingleAgentEnv(num_envs=3, players=3, game=DEFAULT_GAME)
>>> obs, infos = vec.reset(seed=1)
>>> obs.shape == (3, vec.single_observation_space.shape[0]), sorted(k for k in infos if not k.startswith("_"))
(True, ['illegal', 'loser', 'returns', 'seat'])
>>> rng = np.random.default_rng(0)
>>> for _ in range(50):
...     masks = vec.action_masks()          # (num_envs, num_steps) booleans, all false for a deal that ended
...     actions = np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1)
...     obs, rewards, terminated, truncated, infos = vec.step(actions)
>>> masks.shape == (3, vec.single_action_space.n), rewards.dtype, terminated.dtype
(True, dtype('float64'), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from mustamaija.core.errors import IllegalActionError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME
from mustamaija.envs.gym_env import SingleAgentEnv

__all__ = ["VectorSingleAgentEnv"]

Obs = npt.NDArray[np.float32]


class VectorSingleAgentEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` deals of :class:`~mustamaija.envs.gym_env.SingleAgentEnv`, stepped together.

    Every argument but three is the single environment's (``players``,
    ``opponents``, ``seat``, ``preset``, ``game``, ``illegal_action``,
    ``render_mode`` and the rule keys), the same for every deal. ``copy``
    says whether :meth:`reset` and :meth:`step` return a copy of the batch
    of observations (the default, as in ``SyncVectorEnv``) or the batch
    itself, which the next call overwrites. ``autoreset_mode`` is a
    :class:`gymnasium.vector.AutoresetMode` or its value (``"NextStep"``,
    ``"SameStep"``, ``"Disabled"``).

    ``reset(seed=s)`` seeds deal ``i`` with ``s + i`` (a list gives one
    seed per deal), so deal ``i`` is what ``SingleAgentEnv`` plays after
    ``reset(seed=s + i)``. The actions are one step per deal, integers; an
    illegal step is treated as the single environment treats it, except
    that with ``illegal_action="raise"`` every step is checked before any
    deal moves, and the error names the deal.
    """

    def __init__(self, num_envs: int = 1, players: int = 3, opponents: str | Sequence[str] = "random",
                 seat: int | None = None, preset: str | None = None, game: str | Game = DEFAULT_GAME,
                 illegal_action: str = "lose", render_mode: str | None = None, copy: bool = True,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, **rules: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"bad num_envs {num_envs!r}: expected a whole number of deals, at least 1")
        self.num_envs = num_envs
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(f"bad autoreset_mode {autoreset_mode!r}: expected one of {modes}") from None
        first = SingleAgentEnv(players, opponents, seat, preset, game, illegal_action, render_mode, **rules)
        self.envs = [first, *(SingleAgentEnv(players, opponents, seat, preset, game, illegal_action, render_mode, **rules)
                              for _ in range(num_envs - 1))]
        self.copy = copy
        self.game_spec: Game = first.game_spec
        self.players = players
        self.render_mode = render_mode
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._num_steps = self.game_spec.num_steps
        self._mask_bytes = (self._num_steps + 7) // 8
        # One batch of observations for the whole life of the environment; each deal's view is encoded into its row.
        self._observations: Obs = np.zeros((num_envs, self.game_spec.obs_size), dtype=np.float32)
        self._rows = list(self._observations)
        self._done = [False] * num_envs  # The deals that ended at the last step (and await their next deal).
        self._started = False

    # Results.

    def _encode(self, which: Sequence[int] | None = None) -> None:
        """Encode the learner's view of deals ``which`` (every deal if ``None``) into their rows of the batch."""
        if which is None:
            for env, row in zip(self.envs, self._rows, strict=True):
                env._encode_into(row)
            return
        for i in which:
            self.envs[i]._encode_into(self._rows[i])

    def _batch(self) -> Obs:
        return self._observations.copy() if self.copy else self._observations

    def _infos(self, which: Sequence[int], illegal: Sequence[bool] | None = None) -> dict[str, Any]:
        """Return the infos of deals ``which`` in Gymnasium's vector layout: an array per key, ``_key`` marking who has it.

        The arrays have the types ``SyncVectorEnv`` gives the single
        environment's values (``int`` for the seats, ``bool``, ``float64``
        rows for the returns), and the entries of the other deals are zeros,
        as there. Returns are 0 until a deal is over (the single
        environment's promise), so only finished deals ask the game.
        """
        n = self.num_envs
        seat = np.zeros(n, dtype=int)
        loser = np.zeros(n, dtype=int)
        returns = np.zeros((n, self.players), dtype=np.float64)
        flags = np.zeros(n, dtype=np.bool_)
        present = np.zeros(n, dtype=np.bool_)
        for i in which:
            env = self.envs[i]
            seat[i] = env.seat
            present[i] = True
            if env.game_state.is_over:
                loser[i] = env._loser()
                returns[i] = self.game_spec.returns(env.game_state)
            else:
                loser[i] = -1
            if illegal is not None and illegal[i]:
                flags[i] = True
        return {"seat": seat, "_seat": present, "loser": loser, "_loser": present.copy(),
                "illegal": flags, "_illegal": present.copy(), "returns": returns, "_returns": present.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return every deal's legal steps for the learner, ``(num_envs, num_steps)`` booleans.

        A deal that ended (waiting for its next deal) has no legal step: its
        row is all false, as the single environment's mask is then.
        """
        if not self._started:
            raise RuntimeError("call reset() before using the environment")
        packed = b"".join([env._legal_mask().to_bytes(self._mask_bytes, "little") for env in self.envs])
        bits = np.frombuffer(packed, dtype=np.uint8).reshape(self.num_envs, self._mask_bytes)
        return np.unpackbits(bits, axis=1, count=self._num_steps, bitorder="little").view(np.bool_)

    # Gymnasium's API.

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal every deal again (or those of ``options["reset_mask"]``), seeded as :class:`SyncVectorEnv` seeds them."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            super().reset(seed=seed)  # The vector's own generator (Gymnasium's checks look for it); deals use their own.
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per deal ({self.num_envs}), not {len(seeds)}")
        which = list(range(self.num_envs))
        if options is not None and "reset_mask" in options:
            which = [int(i) for i in np.flatnonzero(self._reset_mask(options["reset_mask"]))]
        for i in which:
            self.envs[i]._start(seeds[i])
            self._done[i] = False
        self._started = True
        self._encode(None if len(which) == self.num_envs else which)
        return self._batch(), self._infos(which)

    def _reset_mask(self, mask: Any) -> npt.NDArray[np.bool_]:
        """Return ``options["reset_mask"]`` once checked as ``SyncVectorEnv`` checks it."""
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"options['reset_mask'] must be a numpy array, got {type(mask).__name__}")
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ValueError(f"options['reset_mask'] must be booleans of shape ({self.num_envs},), "
                             f"got {mask.dtype} of shape {mask.shape}")
        if not mask.any():
            raise ValueError("options['reset_mask'] must reset at least one deal")
        return mask

    def _steps(self, actions: Any) -> list[int]:
        """Return the actions as Python ints, one per deal, or raise naming what is wrong with them."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"give one step per deal: expected shape ({self.num_envs},), got {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"steps must be integers, got an array of {array.dtype}")
        steps: list[int] = array.tolist()
        return steps

    def _check(self, steps: list[int]) -> None:
        """Refuse, before any deal moves, a step the deals may not take: a finished deal's, an illegal one to raise."""
        for i, (env, step) in enumerate(zip(self.envs, steps, strict=True)):
            if self._done[i]:
                if self.autoreset_mode == AutoresetMode.DISABLED:
                    raise RuntimeError(f"deal {i} is over: reset it (reset(options={{'reset_mask': ...}})) before stepping")
                continue
            if env.illegal_action == "raise" and not (0 <= step < self._num_steps and env._legal_mask() >> step & 1):
                try:
                    env.game_state.verify_step(step)
                except IllegalActionError as e:
                    raise IllegalActionError(e.rule, f"deal {i}: {e.detail}") from None
                raise IllegalActionError("steps", f"deal {i}: step {step} is not legal for the learner")

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """Take one step in every deal (the learner's, then the bots' up to its next turn) and autoreset as configured."""
        if not self._started:
            raise RuntimeError("call reset() before using the environment")
        steps = self._steps(actions)
        self._check(steps)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        illegal = [False] * n
        next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        for i, env in enumerate(self.envs):
            if next_step and self._done[i]:
                env._start(None)  # The next deal, from the deal's own generator; the action is ignored.
                continue
            reward, ended, stopped, illegal[i] = env._act(steps[i])
            if ended or stopped:
                rewards[i], terminated[i], truncated[i] = reward, ended, stopped
        self._done = (terminated | truncated).tolist()
        self._encode()
        everyone = range(n)
        if self.autoreset_mode != AutoresetMode.SAME_STEP or not any(self._done):
            return self._batch(), rewards, terminated, truncated, self._infos(everyone, illegal)
        # Same-step autoreset: keep each finished deal's last observation and info, then deal again at once.
        ended_now = [i for i in everyone if self._done[i]]
        final_obs = np.full(n, None, dtype=object)
        for i in ended_now:
            final_obs[i] = self._observations[i].copy()
        final_info = self._infos(ended_now, illegal)
        present = np.zeros(n, dtype=np.bool_)
        present[ended_now] = True
        for i in ended_now:
            self.envs[i]._start(None)
            self._done[i] = False
        self._encode(ended_now)
        infos = {"final_obs": final_obs, "_final_obs": present, "final_info": final_info, "_final_info": present.copy(),
                 **self._infos(everyone)}
        return self._batch(), rewards, terminated, truncated, infos

    def render(self) -> tuple[Any, ...]:
        """Return each deal's ``render()`` (the learner's view as text with ``render_mode="ansi"``)."""
        return tuple(env.render() for env in self.envs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` of every deal's single environment (or read the attribute), as ``SyncVectorEnv`` does."""
        results = []
        for env in self.envs:
            member = getattr(env, name)
            results.append(member(*args, **kwargs) if callable(member) else member)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Return attribute ``name`` of every deal's single environment."""
        return tuple(getattr(env, name) for env in self.envs)

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute ``name`` of every deal's single environment: one value for all, or a list or tuple of one each."""
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"give one value per deal ({self.num_envs}), not {len(values)}")
        for env, value in zip(self.envs, values, strict=True):
            setattr(env, name, value)

    def close_extras(self, **kwargs: Any) -> None:
        """Close every deal's single environment (they hold no outside resources)."""
        for env in self.envs:
            env.close()
