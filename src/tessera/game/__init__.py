"""The game: bag, racks, turns, challenges, endings, clocks, history and per-player views.

Rules R1 and R4–R7 live here; placement and scoring come from :mod:`tessera.legality` and
:mod:`tessera.scoring`. Every action is validated completely before anything changes, so a
refused action leaves the game exactly as it was.

The package holds one concern per module: the records a game makes
(:mod:`~tessera.game.records`), what it holds (:mod:`~tessera.game.state`), undo
(:mod:`~tessera.game.undo`), clocks (:mod:`~tessera.game.clock`), views
(:mod:`~tessera.game.views`), turn flow and endings (:mod:`~tessera.game.endings`), challenges
(:mod:`~tessera.game.challenges`), moves (:mod:`~tessera.game.actions`), and :class:`Game`,
which is those concerns' mixins together (:mod:`~tessera.game.game`). Import from here.
"""

from .game import Game
from .records import TURN_KINDS, EndReason, Event, EventKind, GameResult, GameState
from .state import PlayerRef, WordSource
from .views import SPECTATOR, PlayerView

__all__ = [
    "SPECTATOR",
    "TURN_KINDS",
    "EndReason",
    "Event",
    "EventKind",
    "Game",
    "GameResult",
    "GameState",
    "PlayerRef",
    "PlayerView",
    "WordSource",
]
