"""``SharedWork``: costly answers made once, shared, bounded; and made in the background for askers who poll."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from mustamaija.web.errors import ApiError
from mustamaija.web.shared_work import SharedWork


def test_a_polled_answer_is_made_once_in_the_background_and_kept() -> None:
    async def run() -> tuple[list[int | None], int]:
        work: SharedWork[str, int] = SharedWork(keep=4, most=2, busy="busy")
        made = []
        gate = asyncio.Event()

        async def make() -> int:
            made.append(1)
            await gate.wait()
            return 7

        answers = [work.start("k", make), work.start("k", make)]  # Started once; the second asker polls.
        assert work.making("k")
        gate.set()
        while work.making("k"):
            await asyncio.sleep(0)
        answers.append(work.start("k", make))
        answers.append(await work.get("k", make))  # A waiting asker gets the same answer, not a new making.
        return answers, len(made)

    assert asyncio.run(run()) == ([None, None, 7, 7], 1)


def test_a_background_failure_is_told_once_then_the_answer_is_made_again() -> None:
    async def run() -> list[object]:
        work: SharedWork[str, int] = SharedWork(keep=4, most=2, busy="busy")
        tries = []

        async def make() -> int:
            tries.append(1)
            await asyncio.sleep(0)
            if len(tries) == 1:
                raise ApiError("not_found", "the deal went away")
            return 9

        seen: list[object] = [work.start("k", make)]
        while work.making("k"):
            await asyncio.sleep(0)
        with pytest.raises(ApiError, match="the deal went away"):  # Polling ends with the error...
            work.start("k", make)
        seen.append(work.start("k", make))  # ...told once: the next ask makes it again.
        while work.making("k"):
            await asyncio.sleep(0)
        seen.append(work.start("k", make))
        return [*seen, len(tries)]

    assert asyncio.run(run()) == [None, None, 9, 2]


def test_too_many_answers_in_the_making_are_refused_whether_waited_for_or_polled() -> None:
    async def run() -> None:
        work: SharedWork[str, int] = SharedWork(keep=4, most=1, busy="the server is busy")
        gate = asyncio.Event()

        async def make() -> int:
            await gate.wait()
            return 1

        assert work.start("a", make) is None
        with pytest.raises(ApiError, match="the server is busy"):
            work.start("b", make)
        with pytest.raises(ApiError, match="the server is busy"):
            await work.get("b", make)
        gate.set()
        while work.making("a"):
            await asyncio.sleep(0)
        assert work.start("b", make) is None  # Room again.
        gate.set()

    asyncio.run(run())


def test_an_answer_kept_elsewhere_is_looked_up_after_the_kept_ones_and_kept_here_then() -> None:
    async def run() -> tuple[list[int | None], list[str], int]:
        work: SharedWork[str, int] = SharedWork(keep=4, most=2, busy="busy")
        looked: list[str] = []
        made = []
        gate = asyncio.Event()

        def found(key: str, answer: int | None) -> Callable[[], int | None]:
            def look() -> int | None:
                looked.append(key)
                return answer
            return look

        async def make() -> int:
            made.append(1)
            await gate.wait()
            return 9

        answers: list[int | None] = [await work.get("a", make, found=found("a", 5))]  # Found elsewhere: not made.
        answers.append(await work.get("a", make, found=found("a", 6)))  # Kept here now: not looked up again.
        answers.append(work.start("b", make, found=found("b", None)))  # Not found: made in the background.
        answers.append(work.start("b", make, found=found("b", 8)))  # In the making here: not looked up.
        gate.set()
        while work.making("b"):
            await asyncio.sleep(0)
        answers.append(work.start("b", make, found=found("b", 8)))  # Made here: kept, not looked up.
        return answers, looked, len(made)

    assert asyncio.run(run()) == ([5, 5, None, None, 9], ["a", "b"], 1)
