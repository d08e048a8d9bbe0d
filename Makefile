# Mighty Ledger: `make run` to play, `make test` before every commit.

VENV := .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PG_URL := postgres://postgres@127.0.0.1:5432/test
PYTEST := $(PYTHON) -m pytest
# The suite runs on every core (pytest-xdist); each worker has a test database of its own.
# Work stealing: a worker that runs out takes tests queued on another, so the long browser tests
# do not end the run on one core while the other waits (plain load scheduling left one core
# idle for ten of the SQLite pass's fourteen minutes). Two workers a core: the browser tests wait
# on pages, relays and servers, and with one worker more than the cores those were busy 65% of the
# SQLite pass; on this 2-core machine the pass took 7:51 with four workers, 8:40 with three.
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
XDIST = -n $(WORKERS) --dist worksteal
# Python keeps what it compiled, whatever the shell says: the suite starts some hundred Python
# processes (the workers of two passes, the servers the tests start), and each one compiled the
# project and rewrote the tests' asserts from scratch on a machine that sets this.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup run serve serve-streams test test-sqlite test-postgres bench lint messages clean

# The venv is rebuilt whenever the dependencies in pyproject.toml change. uv installs them: on a
# clean clone the venv took 15 s with it and 45 s with pip, the same versions (a CI run's first step).
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet uv
	$(VENV)/bin/uv pip install --quiet --python $(PYTHON) -e '.[dev]'
	touch $@

setup: $(STAMP)

run: setup
	$(PYTHON) manage.py migrate --no-input
	$(PYTHON) manage.py check_presets
	$(PYTHON) manage.py runserver 127.0.0.1:8000

# The app as it runs for real: DEBUG off, PostgreSQL, hashed static files served
# by whitenoise, gunicorn workers from the core count (gunicorn.conf.py). Needs
# SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL in the environment (Redis carries
# each change from the workers to the stream processes, and the rate limits' shared counts); see
# docs/operations.md.
# gunicorn.conf.py run on its own checks those first, before anything is migrated.
# The event streams run beside the workers under uvicorn on STREAM_BIND (default
# 127.0.0.1:8001); the proxy sends /g/<token>/events/ and /g/<token>/s/<id>/events/
# there (docs/operations.md: Live updates).
# The stream server is started again whenever it dies (STREAMS_KEPT_UP below).
# Each master has a control socket of its own (gunicorn.conf.py names it after its role
# and address): two masters on gunicorn's one default socket would take it from each other.
serve: setup
	@$(PYTHON) gunicorn.conf.py
	DEBUG=false $(PYTHON) manage.py check --deploy
	DEBUG=false $(PYTHON) manage.py migrate --no-input
	DEBUG=false $(PYTHON) manage.py check_presets
	DEBUG=false $(PYTHON) manage.py collectstatic --no-input
	( $(STREAMS_KEPT_UP) ) & streams=$$!; \
	trap 'kill $$streams 2>/dev/null' EXIT INT TERM; \
	DEBUG=false $(VENV)/bin/gunicorn -c gunicorn.conf.py mighty_ledger.wsgi

# serve's stream server, started again a second after it exits (a killed master: its worker
# has already let the port go, mighty_ledger/live/worker.py); stopping serve stops it.
STREAMS_KEPT_UP = trap 'kill $$server 2>/dev/null; exit 0' TERM; \
	while :; do \
		$(STREAM_ENV) $(STREAM_SERVER) & server=$$!; \
		wait $$server; \
		echo "make serve: the stream server exited ($$?); starting it again" >&2; \
		sleep 1; \
	done

# The stream server alone, exactly as serve starts it (tests/live/test_stream_server.py
# starts it this way): uvicorn's worker with every link masked in its log.
STREAM_ENV = DEBUG=false SERVE_ROLE=streams
STREAM_SERVER = $(VENV)/bin/gunicorn -c gunicorn.conf.py -k mighty_ledger.live.worker.StreamWorker \
	--bind "$${STREAM_BIND:-127.0.0.1:8001}" --workers "$${STREAM_WORKERS:-1}" mighty_ledger.asgi:application

serve-streams:
	$(STREAM_ENV) exec $(STREAM_SERVER)

# The two passes run one after the other. Beside each other (the PostgreSQL pass at nice 10, then
# 19, to take only the 18% of the cores the browser tests leave idle) the whole took 8:30 and 8:24
# instead of 8:56, but the browser tests ran a minute slower, each page's waits nearer their limits.
test: setup
	$(VENV)/bin/ruff check .
	bash scripts/ensure_browser.sh
	bash scripts/ensure_proxies.sh
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres

test-sqlite: setup
	env -u DATABASE_URL $(PYTEST) $(XDIST)

# Again on PostgreSQL, the production database, what it does differently: writes at once,
# locks, constraints, migrations, the live broker (tests/conftest.py, POSTGRES_PASS). CI must not
# pass silently without PostgreSQL; a developer without it gets a notice.
test-postgres: setup
	@if $(PYTHON) -c "import psycopg; psycopg.connect('$(PG_URL)', connect_timeout=3).close()" \
			>/dev/null 2>&1; then \
		echo "DATABASE_URL=$(PG_URL) $(PYTEST) $(XDIST) -m 'postgres and not browser'"; \
		DATABASE_URL=$(PG_URL) $(PYTEST) $(XDIST) -m "postgres and not browser"; \
	elif [ "$${CI:-}" = "true" ]; then \
		echo "PostgreSQL does not answer at 127.0.0.1:5432, and CI needs it." >&2; \
		echo "Start it: pg_ctlcluster --skip-systemctl-redirect \$$(ls /etc/postgresql) main start" >&2; \
		exit 1; \
	else \
		echo "Skipping the PostgreSQL pass: nothing answers at 127.0.0.1:5432."; \
	fi

bench: setup
	@if [ -f benchmarks/__init__.py ]; then $(PYTHON) -m benchmarks; \
	else echo "no benchmarks package"; fi

# `ruff check` is enforced (make test runs it); formatting is advisory so that
# nobody reformats files that someone else owns.
lint: setup
	$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check . \
		|| echo "(advisory) run '$(VENV)/bin/ruff format FILE' on the files you changed"

# After changing a translatable string: update the Korean catalog, translate
# the new entries, then run this again to compile the committed .mo.
messages: setup
	$(PYTHON) manage.py makemessages -l ko --add-location=file \
		--ignore=.venv --ignore=staticfiles --ignore=tests --ignore=benchmarks
	$(PYTHON) manage.py compilemessages -l ko --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
