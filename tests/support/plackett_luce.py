"""Plackett-Luce as openskill documents it (Weng and Lin 2011, algorithm 4), written out from the
paper's formulas for one-player teams, to check the library's numbers against.

For each player i with rating (mu, sigma) before a game:
  sigma'^2 = sigma^2 + tau^2                      (tau: the drift added before every game)
  c        = sqrt(sum over players of (sigma'^2 + beta^2))
  C_q      = sum of exp(mu_s / c) over the players s with place_s >= place_q
  A_q      = how many players share q's place
  p_iq     = exp(mu_i / c) / C_q
  Omega_i  = sigma_i'^2 / c * sum over q with place_q <= place_i of ((1 if q = i else 0) - p_iq) / A_q
  Delta_i  = (sigma_i' / c) * sigma_i'^2 / c^2 * sum over the same q of p_iq (1 - p_iq) / A_q
  mu_i     <- mu_i + Omega_i
  sigma_i  <- sigma_i' * sqrt(max(1 - Delta_i, kappa))
Players who share a place keep their own changes: a level finish costs the one who came in
stronger more (openskill 6.2's source has a step averaging them, which changes nothing, as it
compares each player with itself after the update).
"""
import math

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 0.0001


def rate(players, places):
    """New (mu, sigma) for each (mu, sigma) in `players`, finishing in `places` (1 = first)."""
    drifted = [(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in players]
    c = math.sqrt(sum(sigma**2 + BETA**2 for _, sigma in drifted))
    strength = [math.exp(mu / c) for mu, _ in drifted]
    below = [sum(s for s, p in zip(strength, places) if p >= place) for place in places]
    sharing = [places.count(place) for place in places]
    out = []
    for i, (mu, sigma) in enumerate(drifted):
        omega = delta = 0.0
        for q in range(len(players)):
            if places[q] <= places[i]:
                p = strength[i] / below[q]
                omega += ((1.0 if q == i else 0.0) - p) / sharing[q]
                delta += p * (1 - p) / sharing[q]
        omega *= sigma**2 / c
        delta *= (sigma / c) * sigma**2 / c**2
        out.append([mu + omega, sigma * math.sqrt(max(1 - delta, KAPPA))])
    return [tuple(pair) for pair in out]
