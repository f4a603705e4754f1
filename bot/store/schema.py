"""The SQL of the longer released migrations, kept apart so that bot/store/migrations.py
reads as the list of steps. Released: never edit what these statements do (see
bot/store/__init__.py).
"""

# Snowflakes need 64 bits (`{big}`: BIGINT in PostgreSQL); times stay ISO text and JSON stays
# text on both, so a copy between the backends moves every value unchanged.
INITIAL = """
    CREATE TABLE matches (
        id {identity},
        guild_id {big},
        channel_id {big} NOT NULL,
        thread_id {big},
        challenge_message_id {big},
        board_message_id {big},
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        seed {big} NOT NULL,
        status TEXT NOT NULL CHECK (status IN {statuses}),
        ply INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT NOT NULL,
        outcome TEXT,
        draw_offer INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX matches_thread ON matches (thread_id);
    CREATE TABLE seats (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id {big} NOT NULL,
        name TEXT NOT NULL,
        accepted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, seat),
        UNIQUE (match_id, user_id)
    );
    CREATE INDEX seats_user ON seats (user_id);
    CREATE TABLE moves (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        played_at TEXT NOT NULL,
        UNIQUE (match_id, ply)
    );
    CREATE TABLE preferences (
        user_id {big} PRIMARY KEY,
        theme TEXT,
        updated_at TEXT NOT NULL
    );
"""

# SQLite only (PostgreSQL writes a turn in one statement without it).
TURN_WRITES = """
    -- Writing a turn: one INSERT per turn into this view does the ply check, the log entry
    -- and the match update together (see SqliteStore._write_turns).
    CREATE VIEW turn_writes AS
        SELECT m.id AS match_id, mv.ply, mv.seat, mv.notation, mv.played_at,
               m.snapshot, m.status, m.outcome, m.draw_offer
        FROM matches m JOIN moves mv ON mv.match_id = m.id;
    CREATE TRIGGER turn_writes_insert INSTEAD OF INSERT ON turn_writes BEGIN
        SELECT RAISE(ABORT, 'stale write') WHERE NOT EXISTS (
            SELECT 1 FROM matches WHERE id = NEW.match_id AND ply = NEW.ply - 1
        );
        INSERT INTO moves (match_id, ply, seat, notation, played_at)
            VALUES (NEW.match_id, NEW.ply, NEW.seat, NEW.notation, NEW.played_at);
        UPDATE matches SET ply = NEW.ply, snapshot = NEW.snapshot, status = NEW.status,
            outcome = NEW.outcome, draw_offer = NEW.draw_offer, updated_at = NEW.played_at
            WHERE id = NEW.match_id;
    END;
"""

# Time limits, direct-message preferences and takeback votes, and the jobs table made the
# scheduler's queue: a row per (match, kind, ply) is written when the job is scheduled and
# claimed when it falls due (`claimed_by`, `claimed_at`), so one process runs it, and a
# claim left by a process that died can be recovered. Migration 2's table held claims only
# and nothing wrote to it yet, so it is replaced rather than converted. Due times are the
# injected clock's Unix seconds (compared as numbers, copied unchanged between backends).
TIME_LIMITS = """
    ALTER TABLE matches ADD COLUMN days_per_move INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN expired_at {big};
    DROP TABLE jobs;
    CREATE TABLE jobs (
        id {identity},
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        ply INTEGER NOT NULL,
        due_at {big} NOT NULL,
        claimed_by TEXT,
        claimed_at {big},
        done_at {big},
        UNIQUE (match_id, kind, ply)
    );
    CREATE INDEX jobs_open ON jobs (due_at) WHERE done_at IS NULL;
    ALTER TABLE preferences ADD COLUMN dm INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE preferences ADD COLUMN dm_refused INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE takeback_votes (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (match_id, ply, seat)
    );
"""

# A vacation stops its player's clocks: the jobs of their turns move later, each marked
# with the vacation that moved it (`jobs.vacation_id`), so ending it early moves exactly
# those back. Followers get each board of a match by DM.
VACATIONS_AND_FOLLOWERS = """
    CREATE TABLE vacations (
        id {identity},
        user_id {big} NOT NULL,
        started_at {big} NOT NULL,
        ends_at {big} NOT NULL
    );
    CREATE INDEX vacations_user ON vacations (user_id, ends_at);
    ALTER TABLE jobs ADD COLUMN vacation_id {big};
    CREATE INDEX jobs_paused ON jobs (vacation_id) WHERE vacation_id IS NOT NULL;
    CREATE TABLE followers (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id {big} NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
"""

# Tournaments (issue 30): a round begins when `round` moves from n-1 to n in the transaction
# that writes its boards; an entrant's seed is their entry's place (`id` order).
TOURNAMENTS = """
    CREATE TABLE tournaments (
        id {identity},
        guild_id {big} NOT NULL,
        channel_id {big} NOT NULL,
        creator_id {big} NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        system TEXT NOT NULL CHECK (system IN ('round-robin', 'swiss')),
        rounds INTEGER NOT NULL,
        days_per_move INTEGER NOT NULL,
        max_players INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        double_round INTEGER NOT NULL,
        stage TEXT NOT NULL DEFAULT 'open' CHECK (stage IN ('open', 'running', 'finished')),
        round INTEGER NOT NULL DEFAULT 0,
        entry_message_id {big},
        created_at TEXT NOT NULL
    );
    CREATE INDEX tournaments_guild ON tournaments (guild_id, stage);
    CREATE TABLE tournament_entrants (
        id {identity},
        tournament_id {big} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id {big} NOT NULL,
        name TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        UNIQUE (tournament_id, user_id)
    );
    CREATE TABLE tournament_boards (
        tournament_id {big} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        first_id {big} NOT NULL,
        second_id {big},
        match_id {big} UNIQUE REFERENCES matches (id),
        points DOUBLE PRECISION,
        PRIMARY KEY (tournament_id, round, board)
    );
"""

# Who made a challenge (a rematch rotates the seats, so it is not always seat 1), which
# match a rematch repeats (a second press answers the first rematch instead of opening
# another), and each player's premove lines: one row per (match, seat), valid while the match
# is at `ply`, the lines a JSON list of lists of canonical moves. An open challenge's free
# seats are seats with user 0 (see OPEN_SEAT in bot/store/rows.py), so they need no column.
CORRESPONDENCE = """
    ALTER TABLE matches ADD COLUMN challenger INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE matches ADD COLUMN rematch_of {big};
    CREATE INDEX matches_rematch ON matches (rematch_of);
    CREATE TABLE premoves (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        lines TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
"""

# Every query indexed (issue 36). `/follow`'s choices: a server's open matches, the most
# recently played first. The start-up's unfinished analyses and running tournaments, and its
# matches playing the computer (an unsharded process asks for every match: their seats are read
# from a small index, not by scanning seats). The unrated
# matches' index holds their order too: without it SQLite read every match through the server
# index (their `guild_id IS NOT NULL` is a range on it).
INDEXED = """
    CREATE INDEX matches_server ON matches (guild_id, status, updated_at);
    CREATE INDEX analyses_unfinished ON analyses (created_at, match_id)
        WHERE finished_at IS NULL;
    CREATE INDEX tournaments_running ON tournaments (id) WHERE stage = 'running';
    CREATE INDEX seats_engines ON seats (match_id) WHERE engine IS NOT NULL;
    DROP INDEX matches_unrated;
    CREATE INDEX matches_unrated ON matches (updated_at, id)
        WHERE status = 'finished' AND rated = 1 AND guild_id IS NOT NULL;
"""
# PostgreSQL's planner takes `status` and `rated` for independent; most finished matches are
# rated already, which it learns from these statistics, so it looks unrated ones up by index.
INDEXED_POSTGRESQL = """
    CREATE STATISTICS matches_status_rated (dependencies, mcv) ON status, rated FROM matches;
"""

# Issue 39 (see the migration's comment).
LIFECYCLE = """
    CREATE TABLE rating_changes (
        match_id {big} NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id {big} NOT NULL,
        mu_before DOUBLE PRECISION,
        sigma_before DOUBLE PRECISION,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    DROP INDEX ratings_rank;
    CREATE INDEX ratings_shown ON ratings (guild_id, game, mu);
    ALTER TABLE matches ADD COLUMN aborted_at {big};
    ALTER TABLE tournaments ADD COLUMN cancelled_at TEXT;
    ALTER TABLE matches ADD COLUMN draw_message_id {big};
"""
