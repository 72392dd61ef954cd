"""A game as the engine sees it: its house rules and where it stands after its saved rounds."""
from orchard.scoring import HouseRules, round_dealer, standing


def house_rules(row):
    """The house rules stored on a crew or game row, as the engine's value."""
    return HouseRules(
        goal=row["goal"],
        tie_rule=row["tie_rule"],
        min_bid=row["min_bid"],
        redeal_moves_deal=bool(row["redeal_moves_deal"]),
    )


def game_standing(game, saved_rounds):
    """Totals, the engine's verdict and who deals next, from the game's saved rounds."""
    return standing(
        [row["scores"] for row in saved_rounds],
        sum(row["redeals"] or 0 for row in saved_rounds),
        game["first_dealer"],
        house_rules(game),
    )


def dealer_for(game, number, redeals_so_far):
    """Who deals round `number` after `redeals_so_far` redeals in the game (this round's included)."""
    return round_dealer(game["first_dealer"], number, redeals_so_far, house_rules(game))
