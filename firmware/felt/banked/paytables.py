"""The posted payout tables of the house-banked games, as data.  Odds are "N to 1": a
winning wager keeps its stake and is paid N times it.  The regulations give minimums
("no less than"); these are the tables as posted.

Four card poker, 19:47-27.11(a):
  1. ante and play wagers against the dealer: 1 to 1, ties to the player;
  2. the ante bonus for three of a kind or better, whatever the dealer holds;
  3. the aces up wager, by one of tables I to VII, whatever the dealer holds.
Texas hold 'em bonus poker: our texts define the bonus wager (19:47-28.1) but not its
table; BONUS holds the one casinos post for the game.  The sign's words for every
row are in felt.banked.sign, loaded only to show it.
"""

from felt.banked import hands4 as H4

# 19:47-27.11(a)2: (category, odds), best first.
ANTE_BONUS = ((H4.QUADS, 25), (H4.STRAIGHT_FLUSH, 20), (H4.TRIPS, 2))

# 19:47-27.11(a)3: the rows of every aces up table, best first; PAIR stands for the
# pair of aces, the lowest paying hand.
ACES_UP_ROWS = (H4.QUADS, H4.STRAIGHT_FLUSH, H4.TRIPS, H4.FLUSH, H4.STRAIGHT,
                H4.TWO_PAIR, H4.PAIR)
ACES_UP_TABLES = ("I", "II", "III", "IV", "V", "VI", "VII")
ACES_UP = (bytes((50, 40, 9, 6, 4, 2, 1)),   # I
           bytes((50, 40, 7, 6, 5, 2, 1)),   # II
           bytes((50, 30, 9, 6, 4, 2, 1)),   # III
           bytes((50, 30, 7, 6, 5, 2, 1)),   # IV
           bytes((50, 40, 8, 5, 4, 3, 1)),   # V
           bytes((50, 40, 8, 6, 4, 2, 1)),   # VI
           bytes((50, 40, 7, 5, 4, 3, 1)))   # VII


def ante_bonus_odds(value):
    """27.11(a)2: the bonus odds on the ante for a four-card hand value, or 0."""
    c = H4.category(value)
    for cat, odds in ANTE_BONUS:
        if c == cat:
            return odds
    return 0


def aces_up_odds(table, value):
    """27.11(a)3: the odds table `table` ("I".."VII") pays on a hand value, or 0 when
    the wager loses (less than a pair of aces)."""
    odds = ACES_UP[ACES_UP_TABLES.index(table)]
    c = H4.category(value)
    if c == H4.PAIR and (value >> 12) & 15 != H4.ACE:
        return 0
    for i in range(len(ACES_UP_ROWS)):
        if ACES_UP_ROWS[i] == c:
            return odds[i]
    return 0


# Texas hold 'em bonus poker's bonus wager, on the player's two cards (and, for the
# top row, the dealer's): per table, the rows' keys and odds, best first.  Our texts
# give no table (19:47-28.1 defines the wager only): "standard" is the one casinos post.
BONUS_TABLES = ("standard",)
BONUS_ROWS = ("aa_aa", "aa", "ak_suited", "aq_aj_suited", "ak", "jj_kk", "aq_aj", "22_tt")
BONUS = ((1000, 30, 25, 20, 15, 10, 5, 3),)


def bonus_hand(a, b, dealer=None):
    """The key of the bonus row two hole cards make, or None; `dealer` (the dealer's
    two cards, when known) makes aces against aces."""
    ra = a >> 2
    rb = b >> 2
    if ra == rb:
        if ra == H4.ACE:
            if dealer and dealer[0] >> 2 == H4.ACE and dealer[1] >> 2 == H4.ACE:
                return "aa_aa"
            return "aa"
        return "jj_kk" if ra >= 9 else "22_tt"
    if max(ra, rb) != H4.ACE:
        return None
    low = min(ra, rb)
    suited = (a & 3) == (b & 3)
    if low == 11:
        return "ak_suited" if suited else "ak"
    if low in (9, 10):
        return "aq_aj_suited" if suited else "aq_aj"
    return None


def bonus_odds(table, key):
    """The odds the bonus table `table` pays on a row key, or 0."""
    if key not in BONUS_ROWS:
        return 0
    return BONUS[BONUS_TABLES.index(table)][BONUS_ROWS.index(key)]
