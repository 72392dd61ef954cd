"""What one address may still do: not-found answers (guesses at links), wrong passphrases and new
crews, each a rate such as "30 per minute" (the limits library's notation), counted in a file
every worker process shares (/store/limits.py), so the limits hold over all of them."""
import functools

from limits import parse as parse_rate

from store.limits import SharedCounter, limits_path

parse = functools.lru_cache(maxsize=64)(parse_rate)  # "30 per minute" -> amount and window


def counter_file(database):
    """The counters' file that goes with a database."""
    return limits_path(database)


class Allowances:
    """Each address's allowances, named (GUESS_LIMIT, PASSPHRASE_LIMIT, CREW_LIMIT), at a rate."""

    def __init__(self, app, path):
        self.counter = SharedCounter(app, path)

    def left(self, name, rate, address):
        """Whether the address has any of the allowance left in the current window (counts nothing)."""
        limit = parse(rate)
        return self.counter.count(name, address, limit.get_expiry()) < limit.amount

    def spend(self, name, rate, address):
        """Count one against the allowance; False when that one was beyond it."""
        limit = parse(rate)
        return self.counter.hit(name, address, limit.get_expiry()) <= limit.amount

    def reserve(self, name, rate, address):
        """Count one against the allowance now, for a step that may give it back (`release`): the
        window it was counted in, or None when that one was beyond the allowance."""
        limit = parse(rate)
        window = self.counter.window_start(limit.get_expiry())
        return window if self.counter.hit(name, address, limit.get_expiry()) <= limit.amount else None

    def release(self, name, rate, address, window):
        self.counter.take_back(name, address, parse(rate).get_expiry(), window)
