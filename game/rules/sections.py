"""The rules reference, in our own words, as data: sections of paragraphs, lists and defined terms.

Each section and each defined term has an id that becomes an anchor on /rules/, so card pages, the checker and the
effect text can link a keyword straight to the rule behind it (see `rules_anchor`). The rulebooks in
shared/rules/ are the authority; this is a summary written for players looking something up mid-game.
"""
import json
from dataclasses import dataclass, field
from pathlib import Path

AUTOMA_DATA = Path(__file__).resolve().parents[2] / "fixtures" / "automa.json"


@dataclass(frozen=True)
class Term:
    """A word with its own anchor, defined in a sentence or two."""

    id: str
    name: str
    text: str


@dataclass(frozen=True)
class Section:
    slug: str
    title: str
    summary: str
    blocks: tuple = field(default_factory=tuple)  # str (a paragraph), list of str (a list), or Term


def para(text):
    return text


def bullets(*items):
    return list(items)


def _automa_facts(tag):
    """The solo rules' facts with this tag, from the data the engine plays (fixtures/automa.json)."""
    try:
        facts = json.loads(AUTOMA_DATA.read_text())["board_facts"][0]["value"]["facts"]
    except (OSError, ValueError, KeyError, IndexError):
        return ["(the Automa's data file is missing)"]
    return [fact["text"] for fact in facts if fact["tag"] == tag]


SECTIONS = (
    Section("setup", "Setting up", "What goes on the table, and what each player starts with.", (
        para("In the middle of the table: the Dragon Guild board with one guild tile drawn at random, turned to "
          "the side for your number of players; the card display with three face-up dragons and three face-up "
          "cave cards "
          "beside their shuffled decks; the round tracker with the round marker on round 1 and four objective tiles "
          "laid out at random, each on a random side; and the supply of coins, eggs and resources."),
        para("Each player takes:"),
        bullets("a player mat and the pieces of one colour: an adventurer (it starts in Base Camp), eight player "
          "markers (four for objectives, four for the guild) and a guild token (it starts on the guild's START space);",
          "6 coins and 1 egg, which goes on one of the two nests printed on the mat;",
          "3 dragon cards and 3 cave cards, of which they keep any 4 and discard the other 2;",
          "any 3 resources, mixed as they like."),
        para("A random player takes the start player marker. With Dragon Academy, also put the training tokens within "
          "reach, use the updated round tracker, and swap in the updated printings of five dragons and of cave "
          "cards 50 and 51."),
    )),
    Section("turn", "A turn", "One action, then tidy up; or pass for the rest of the round.", (
        para("On your turn you take exactly one action: excavate, entice, or explore one of your three caves. Move "
          "your adventurer to the action and leave what you paid for it (coins, eggs) on the mat: that is how "
          "you track "
          "how often you used it this round."),
        para("Once you have passed, the round goes on without your turns, though other players' abilities can "
          "still hand you things. With Dragon Academy, passing is your whole turn, and in rounds 1 to 3 you put "
          "your adventurer on a free income space of the round tracker; you collect that income at round end."),
        para("Whenever your turn ends, keep at most 9 coins, 9 cards (dragons and cave cards together) and "
          "9 resources, and discard the rest. Then the display is refilled and the next player clockwise who has "
          "not passed takes a turn."),
        Term("exchange", "Exchange", "At any moment you may swap 2 resources, in any mix, for 1 resource of "
             "another kind."),
        Term("own-mat", "Your own mat only", "Abilities never put things on, or take things from, another "
             "player's mat: you only deal with the supply, the shared boards and your own mat."),
    )),
    Section("excavate", "Excavate", "Open a new space in a cave by playing a cave card there.", (
        para("Pick one of your caves and its leftmost space that is still empty (each cave's first space is open from "
          "the start). Pay 1 coin, plus 1 egg for a space in the third column or 2 eggs for the fourth. Put a cave "
          "card from your hand on that space; any cave card fits any cave."),
        para("Then take the cave card's when-played benefit if you want it, and, for a fourth-column space, the mat's "
          "one-time bonus: you may pay 3 items (resources and cards, any mix) to gain 1 coin."),
        para("An ability that lets you excavate for free skips both the coin and the column's eggs."),
    )),
    Section("entice", "Entice", "Bring a dragon from your hand onto your mat.", (
        para("Pay 1 coin and the cost printed in the dragon's top-left corner. Place the dragon in a cave shown among "
          "its habitats, on the leftmost excavated space of that cave that has no dragon yet. Then take its "
          "when-played benefit, if it has one."),
        para("A mat holds at most 12 dragons. A dragon only goes on top of another when an ability says so; the one "
          "underneath then counts as tucked, and what was on it moves to the new dragon (eggs only up to the new "
          "dragon's nests)."),
        Term("play-a-dragon", "Play a dragon (from an ability)", "When an ability lets you play a dragon, you pay "
             "only the dragon's printed cost, not the entice coin. A free or cheaper play lowers only that printed "
             "cost. The dragon still needs an excavated space in one of its caves unless the ability says otherwise."),
    )),
    Section("explore", "Explore", "Walk through one cave and use what you pass.", (
        para("Choose a cave and pay its entrance cost: 1 coin the first time you explore it this round, 1 coin and "
          "1 egg the second time, 1 coin and 2 eggs the third (and last) time."),
        para("Your adventurer walks from the entrance to the right. Along the path, mat icons and dragon spaces "
          "alternate: a gain-a-resource icon, space 1, a guild icon, space 2, a gain-a-resource icon, space 3, a "
          "lay-an-egg icon, space 4, then the cave's end bonus. You may use every mat icon you pass and the "
          "if-activated ability of every dragon you walk onto, in that order."),
        para("The walk stops at the first space with no dragon, or at the end of the cave. Your adventurer then goes "
          "back to Base Camp."),
        Term("if-activated-timing", "Not on the turn it arrives", "A dragon's if-activated ability never fires on "
             "the turn the dragon was played."),
    )),
    Section("abilities", "Abilities", "The four kinds of printed ability, and who takes part.", (
        Term("when-played", "When played", "Happens once, as the card is played."),
        Term("if-activated", "If activated", "Happens each time your adventurer walks onto the dragon while "
             "exploring."),
        Term("once-per-round", "Once per round", "Happens at the end of every round, after everyone has passed."),
        Term("end-game", "End of game", "Scores when the game is over, if its condition is met."),
        para("Every ability is optional. When an ability also gives something to the other players, their share "
          "does not depend on you: they may take it while you turn yours down."),
        Term("activate", "Use another ability", "Some abilities let you use the ability of another dragon or "
             "card as if it had just fired; the copied ability follows its own words."),
    )),
    Section("guild", "The Dragon Guild", "Advancing around the guild track and placing markers on the guild tile.", (
        para("Each Dragon Guild advancement (the shield icon) moves your guild token one space clockwise around the "
          "track, and you take the benefit of the space it reaches. Several advancements in one turn give you the "
          "benefit of every space passed on the way as well as the last one. Tokens may share a space."),
        para("Reaching one of the two brown spaces means you must place one of your unused guild markers on a free "
          "square of the guild tile and take that square's benefit. A square holds one marker, except the long "
          "box at the bottom right, which holds any number. You place at most four markers in a game; after that "
          "you keep advancing without placing."),
        para("Markers in the tile's end-game row score their printed VP when the game ends. If several players reach "
          "a brown space in the same turn, they place in clockwise order from the active player."),
        Term("tithe", "Tithe", "One item of your choice, be it a resource, a card (dragon or cave) or an egg. "
             "When you owe several, mix them as you like (Dragon Academy's King's Guild)."),
    )),
    Section("hatchlings", "Hatchlings", "Young dragons that you feed, and that grow up once.", (
        para("A hatchling costs an egg and some milk. Its ability has three parts:"),
        bullets("when your adventurer walks onto it, you may feed it with what the card shows: 1 milk or meat cached "
          "on it, or 1 card tucked beneath it;",
          "every time its food goes onto it, by any means (your walk, another dragon, a cave card), you gain its "
          "feeding benefit;",
          "the third time, you also gain its grow-up bonus. That bonus comes only once per game, not every third "
          "time."),
        para("Feeding keeps paying its benefit after the hatchling has grown up. Hatchlings are dragons for anything "
          "that counts dragons."),
    )),
    Section("fledglings", "Fledglings", "Dragon Academy's teenage dragons: train them to wake their ability.", (
        para("A fledgling shows a row of training boxes and an ability that stays asleep until every box is filled. "
          "Until then no ability can use it; it still counts, though, for objectives and end-game scoring that "
          "look at the kinds of ability on your dragons."),
        Term("train", "Train", "Each time your adventurer walks onto a fledgling you may train it once: pay the "
             "item shown in its leftmost empty box to the general supply and put a training token there. Boxes "
             "fill from left to right. Train for free: place the token without paying. Fully train: fill every "
             "empty box at once. Gain the covered item: instead of paying, gain the item the new token covers."),
        para("The payment goes back to the supply; it is not cached or tucked on the fledgling."),
        para("Scoring: each fledgling is worth as many VP as you have fledglings on your mat, trained or not. "
          "Three fledglings are worth 3 VP each, 9 in all."),
    )),
    Section("conditional-costs", "Conditional costs", "Dragons that come free when their condition holds.", (
        para("Some Dragon Academy dragons carry a star and a condition next to their cost. If the condition holds "
          "when you play the dragon, you skip its printed cost. You still need a way to play it: the entice action "
          "(with its coin) or an ability that plays a dragon."),
        para("The condition is checked as if the dragon were already in the space it is going to, so a dragon that is "
          "free as the third dragon of its cave counts itself."),
    )),
    Section("cache", "Caching", "Putting resources on a dragon, where they stay and score.", (
        para("To cache is to place a resource on a dragon on your mat. Unless the ability says otherwise, the resource "
          "comes from your own supply and goes on the dragon whose ability it is; 'here' means that dragon. Some "
          "abilities take it from the general supply instead, so it costs you nothing."),
        para("Cached resources stay put until the end, so they are no longer yours to spend; each scores 1 VP "
          "unless something says otherwise."),
    )),
    Section("tuck", "Tucking", "Sliding a dragon card under a dragon, where it stays and scores.", (
        para("To tuck is to slide a dragon card, face down, beneath one of the dragons on your mat. Unless the "
          "ability says otherwise, the card comes from your hand and goes under the dragon whose ability it is; "
          "'here' means "
          "that dragon."),
        para("Tucked cards stay until the end and are worth 1 VP each unless something says otherwise. They are not "
          "dragons: nothing that counts dragons counts them."),
        Term("tucked-cost", "Tuck to gain from its cost", "When tucking a dragon lets you gain a resource from its "
             "cost, you gain one of the resources printed in that cost, not all of them, and never a coin."),
    )),
    Section("eggs", "Eggs", "Laying eggs in nests, and paying with them.", (
        Term("lay-egg", "Lay an egg", "Take an egg from the supply and put it in an empty nest: on one of your "
             "dragons (one egg per nest icon) or on one of the two nests printed on your mat. With no empty nest, "
             "you cannot lay it. 'Here' means only on this dragon; some abilities limit the place to a cave or a "
             "column."),
        Term("pay-egg", "Pay an egg", "Remove an egg from any of your dragons or mat nests, unless the ability "
             "names a place."),
        para("Eggs on your mat are worth 1 VP each at the end unless something says otherwise. Actions often cost "
          "eggs too: the third and fourth columns when excavating, and a second or third exploration of a cave."),
    )),
    Section("cards", "Gaining and revealing cards", "Where a card comes from when an ability hands you one.", (
        Term("gain-card", "Gain a card", "Take a face-up card from the display or the top card of the deck, as "
             "you like. The display is only refilled at the end of the turn, so it may be empty; the deck is "
             "always there."),
        Term("from-display", "From the display", "Only a face-up card will do; with none left, you get nothing."),
        Term("draw", "Draw", "Only the top card of the deck."),
        Term("reveal", "Reveal", "Turn the top dragon card of the deck face up for everyone to see, then do with "
             "it what the ability says. (The rulebook puts an unused card back on top of the deck; every card "
             "that reveals says what happens to it.)"),
        Term("pay-item", "Pay an item", "Discard it: a card from your hand, a resource or coin from your supply, "
             "an egg from a nest, unless the ability names a place."),
    )),
    Section("round-end", "End of a round", "What happens once everyone has passed.", (
        para("Core game, in order: the coins and eggs paid onto the mats go back to the supply; every "
          "once-per-round ability fires, player by player in turn order from the round's start player; then the "
          "round's objective is scored by placing a marker on the tracker by rank."),
        para("Objective ties are friendly: everyone tied for first places on first, and the next player places on "
          "second. A player with none of what the objective counts places on the 'all others' row."),
        para("Before the next round: move the round marker; replace the display's face-up cards with three fresh "
          "dragons and three fresh cave cards; everyone receives 6 coins and an egg (the egg needs an empty nest); "
          "the start player marker moves one player clockwise."),
        para("With Dragon Academy the round-end order is: once-per-round abilities, the objective, the display "
          "refresh, the start player marker, then everyone collects the income of the space they chose when "
          "passing and takes back their adventurer."),
        Term("all-players", "All players / each opponent", "When an ability gives something to every player, "
             "the active player acts first, then the others clockwise. A once-per-round ability that involves "
             "everyone starts with its owner."),
    )),
    Section("scoring", "Game end and scoring", "After round 4, count up.", (
        bullets("guild markers in the tile's end-game row;",
          "the printed VP of the dragons on your mat (not those in hand or tucked);",
          "end-game abilities of the dragons on your mat;",
          "1 VP per egg, per cached resource and per tucked card, unless something says otherwise;",
          "the objective markers on the round tracker, ties scoring the full value of their level;",
          "1 VP per coin left, and 1 VP for every 4 other items left (resources and cards in any mix), rounded "
          "down."),
        para("Most VP wins. A tie goes to the player with more dragons on their mat (tucked cards do not count); if "
          "still tied, the victory is shared."),
    )),
    Section("solo", "Solo against the Automa", "Playing alone: the Automa follows a deck of decision cards and "
            "never chooses.", (
        para("Set up as for two players, but the Automa takes no mat, cards, coins, resources or eggs. Her guild "
          "token starts on the START space; she has one guild marker ready, and one more becomes ready after each "
          "of rounds 1 to 3. Her deck is the 8 decision cards of the level you pick (1, 2 or 3, each also in Ravel "
          "Mode). If the objective about position on the Dragon Guild comes up, another tile replaces it."),
        para("You are the start player in every round. On her turn she turns over the top card of her deck and "
          "does what it shows, in this order: refresh the dragon display (three new face-up dragons), put a coin "
          "on or take one off this round's objective tile, then move her guild token the number of spaces the "
          "card gives for this round. She gains nothing from ordinary guild spaces. When she reaches a brown "
          "space (stopping on it or moving past), she takes the dragon in the display slot the card names and "
          "either the cave card in the slot it names or places a marker on the guild tile, on the ability the "
          "card counts to."),
        para("When the last card of her deck shows the pass mark, she passes instead of playing it; with no card "
          "left she passes. Each round her 8 cards are shuffled again, one is set aside unseen and the other 7 "
          "are her deck."),
        para("At round end she competes for the objective like a player: her count is the tile's Automa value for "
          "the round plus the coins on it (never more than a player could have). Ties are friendly. The coins "
          "then go back."),
        Term("automa-score", "The Automa's score", "7 VP for each dragon she took (8 at level 3), 2 VP for each "
             "cave card, 1 VP for each space her guild token stands past the last brown space (none on a brown "
             "space), and her objective places. If you tie, you win."),
        Term("ravel-mode", "Ravel Mode", "Some of her cards move her as many spaces as you have excavated in "
             "your most excavated cave (or that plus one, or your least excavated cave; the first space of a cave "
             "counts, a full cave counts 4). Between rounds you keep at most 2 coins. At game end her markers on "
             "the guild tile's END GAME squares score their VP."),
        Term("automa-cache", "Dragon Academy: Automa's cache", "When your dragon or cave ability offers all "
             "opponents something, she takes 2 cache tokens for each item she would gain, or 1 for each if the "
             "offer makes her pay first; she scores 1 VP for every 2 tokens. A random player starts round 1 and "
             "the start alternates. If she passes before you, you may not pass onto a 6-income space."),
        para("Not everything above is in the official rules we could read. These points follow unofficial tools "
          "(community readings):"),
        _automa_facts("COMMUNITY"),
        para("These follow from the official rules but are not stated in them (inferred):"),
        _automa_facts("INFERRED"),
        para("And these are our own decisions where no source answers:"),
        _automa_facts("DECISION"),
    )),
    Section("terms", "Terms used on cards", "Short phrases and what they cover.", (
        Term("in-this-cave", "In this cave", "Only the cave the dragon sits in (the Crimson Cavern, the Golden "
             "Grotto or the Amethyst Abyss), not the whole mat."),
        Term("column", "In this column", "The dragon's column: the spaces above and below it in the other two "
             "caves, and its own."),
        Term("adjacent", "Adjacent", "The spaces directly left, right, above and below a dragon (never "
             "diagonal), not the dragon itself."),
        Term("beside", "Beside", "The dragon's left and right neighbours in its own cave."),
        Term("itself", "It counts itself", "A dragon that looks for dragons of a trait, size or place includes "
             "itself when it matches, unless it says 'other'."),
        Term("on-your-mat", "On your mat", "The dragons showing on your mat. Tucked cards are never counted as "
             "dragons."),
        Term("resources", "Resources", "Meat, gold, crystal and milk; nothing else. Coins and eggs do not count as "
             "resources."),
        Term("here", "Here", "On, or under, the dragon whose ability it is."),
        Term("up-to", "Up to", "Any number from none to the amount given; each time is resolved on its own, so "
             "what the first gives you can pay for the second."),
        Term("habitat", "Habitat", "The caves printed on a dragon's edge; it may only be played into one of them "
             "unless an ability says the habitats are ignored."),
    )),
)
