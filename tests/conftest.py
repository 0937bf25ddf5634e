"""Fixtures shared by the test modules: a real PostgreSQL server (started here unless one is given) and schemas in it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from pg_server import PostgresServer, UnavailableError


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    url = os.environ.get("MUSTAMAIJA_TEST_DATABASE_URL")
    if url:
        yield url
        return
    try:
        server = PostgresServer.start()
    except UnavailableError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the PostgreSQL tests cannot run: {e}")
        pytest.skip(f"no PostgreSQL to test against: {e}")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:
    """Yield a URL whose tables live in a fresh schema, dropped afterwards."""
    schema = "test_" + secrets.token_hex(6)
    engine = sa.create_engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    try:
        yield sa.make_url(postgres_url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()
