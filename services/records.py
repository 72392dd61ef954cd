"""The crew's records: its highest and lowest rounds, most bonuses, biggest comeback, longest
winning streak and its four-of-the-target hands, each naming the player, game and round."""
from dataclasses import dataclass

from store import records as record_store


@dataclass(frozen=True)
class Records:
    best: dict  # record name -> the row it came from, or None; "fours": {"count", "hands"}
    recent_fours: int  # how many four-of-the-target hands are listed, newest first


def crew_records(crew_id):
    """Every record the crew holds, from its finished games."""
    return Records(best=record_store.records(crew_id), recent_fours=record_store.RECENT_FOURS)
