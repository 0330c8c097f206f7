// Word study: look a word up (valid? its anagrams, its hooks), anagram and pattern searches,
// and the anagram quiz over the player's card box, which the server keeps (a guest's too), so
// it follows the player to another device and outlives a restart of the server.
import { api } from "./api.js";
import { $, el, showPage } from "./dom.js";
import { currentLanguage, t, tn } from "./i18n.js";
import { getMeta } from "./newgame.js";
import { currentUser, describeError, ensureUser } from "./session.js";

const LENGTH = "tessera:study-length";
const LENGTHS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

let lexicon = null;
let question = null;  // the alphagram asked now ({alphagram, rank, answers, length, …})
let asked = 0;        // questions shown on this page (the tests wait on it)

function wordList(words, className = "") {
  return el("ul", { className: `word-list ${className}`.trim() },
    words.map((w) => el("li", { text: w })));
}

// "3 days", "10 min": a card's wait in the largest unit that fits
function duration(ms) {
  const minutes = Math.round(ms / 60000);
  if (minutes < 60) return t("{n} min", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t("{n} h", { n: hours });
  const days = Math.round(hours / 24);
  if (days % 7 === 0 && days < 28) return tn("{n} week", "{n} weeks", days / 7);
  return tn("{n} day", "{n} days", days);
}

// -- look up ---------------------------------------------------------------------------------

function renderLookup(info) {
  const box = $("lookup-result");
  // the sentence around the word (in bold): "{word} is valid in {lexicon}."
  const sentence = info.valid ? t("{word} is valid in {lexicon}.", { lexicon: info.lexicon })
    : t("{word} is not a word in {lexicon}.", { lexicon: info.lexicon });
  const [before, after] = sentence.split("{word}");
  const verdict = el("p", { className: info.valid ? "ok" : "message", dataset: { valid: info.valid ? "1" : "0" } },
    before, el("strong", { text: info.word }), after ?? "");
  const none = t("none");
  const rows = [
    [t("Anagrams"), info.anagrams.length ? info.anagrams.join(" ") : none, "lookup-anagrams"],
    [t("Front hooks"), info.front_hooks ? info.front_hooks.split("").join(" ") : none, "lookup-front"],
    [t("Back hooks"), info.back_hooks ? info.back_hooks.split("").join(" ") : none, "lookup-back"],
  ];
  if (info.probability_rank) {
    rows.push([t("Probability"), t("#{rank} of the {length}-letter alphagrams",
      { rank: info.probability_rank, length: info.word.length }), "lookup-rank"]);
  }
  box.replaceChildren(verdict, el("dl", { className: "facts" },
    rows.flatMap(([term, value, id]) => [el("dt", { text: term }), el("dd", { id, text: value })])));
}

async function lookup(event) {
  event.preventDefault();
  const word = $("lookup-word").value.trim();
  if (!word) return;
  try {
    renderLookup(await api.lookup(word, lexicon));
  } catch (err) {
    $("lookup-result").replaceChildren(el("p", { className: "message", text: describeError(err) }));
  }
}

// -- searches --------------------------------------------------------------------------------

async function search(event) {
  event.preventDefault();
  const text = $("search-text").value.trim();
  if (!text) return;
  const kind = document.querySelector('input[name="search-kind"]:checked').value;
  const box = $("search-result");
  try {
    const found = kind === "pattern"
      ? await api.pattern(text, lexicon)
      : await api.anagram(text, kind === "build", lexicon);
    const total = found.total.toLocaleString(currentLanguage());
    const counted = found.total > found.words.length
      ? tn("{total} word (the first {n} shown).", "{total} words (the first {n} shown).", found.total,
        { total, n: found.words.length })
      : tn("{total} word.", "{total} words.", found.total, { total });
    box.replaceChildren(
      el("p", { id: "search-count", text: counted }),
      wordList(found.words),
    );
  } catch (err) {
    box.replaceChildren(el("p", { className: "message", text: describeError(err) }));
  }
}

// -- the quiz --------------------------------------------------------------------------------

function renderBox(box) {
  const rows = box.boxes.map((count, i) => el("tr", { dataset: { box: i } },
    el("th", { scope: "row", text: i === 0 ? t("0 (missed)") : String(i) }),
    el("td", { className: "num", text: count }),
    el("td", { text: i === 0 ? tn("{n} question", "{n} questions", box.retry_after) : duration(box.intervals_ms[i]) }),
  ));
  $("quiz-box").tBodies[0].replaceChildren(...rows);
  const summary = $("quiz-box-summary");
  summary.dataset.answers = box.answers;
  summary.dataset.cards = box.cards;
  summary.textContent = [
    tn("{n} {length}-letter card, {due} due now;", "{n} {length}-letter cards, {due} due now;", box.cards,
      { length: box.length, due: box.due }),
    tn("{n} answer in all.", "{n} answers in all.", box.answers),
  ].join(" ");
}

function describeQuestion(q, card, why) {
  const parts = [t("#{rank} of the {length}-letter alphagrams", { rank: q.rank, length: q.length }),
    tn("{n} word", "{n} words", q.answers)];
  if (why === "new") parts.push(t("new card"));
  else if (card && card.box === 0) parts.push(t("missed before: back from box 0"));
  else if (card) parts.push(t("from box {box}", { box: card.box }));
  return parts.join(" · ");
}

async function nextQuestion() {
  $("quiz-error").textContent = "";
  const length = +$("quiz-length").value;
  let data;
  try {
    data = await api.quiz(length, lexicon);
  } catch (err) {
    $("quiz-error").textContent = describeError(err);
    return;
  }
  renderBox(data.box);
  $("quiz-start").hidden = true;  // under way: a change of length asks at once
  $("quiz-card").hidden = false;
  $("quiz-verdict").replaceChildren();
  delete $("quiz-verdict").dataset.correct;
  question = data.question;
  if (!question) {
    $("quiz-alphagram").textContent = "";
    $("quiz-info").textContent = t("No alphagrams of this length.");
    return;
  }
  asked += 1;
  const card = $("quiz-card");
  card.dataset.seq = asked;
  card.dataset.alphagram = question.alphagram;
  card.dataset.why = data.why;
  $("quiz-alphagram").textContent = question.alphagram;
  $("quiz-alphagram").setAttribute("aria-label",
    t("Letters: {letters}", { letters: question.alphagram.split("").join(" ") }));
  $("quiz-info").textContent = describeQuestion(question, data.card, data.why);
  $("quiz-answer").value = "";
  $("quiz-answer").disabled = false;
  $("quiz-check").disabled = false;
  $("quiz-next").disabled = true;
  $("quiz-answer").focus();
}

function renderVerdict(result) {
  const box = $("quiz-verdict");
  box.dataset.correct = result.correct ? "1" : "0";
  const card = result.card;
  const back = card.box === 0
    ? tn("back after {n} other question", "back after {n} other questions", result.box.retry_after)
    : t("back in {time}", { time: duration(result.box.intervals_ms[card.box]) });
  const vars = { alphagram: result.question.alphagram, box: card.box, back };
  const parts = [
    el("p", { className: result.correct ? "ok verdict-line" : "message verdict-line",
      text: result.correct ? t("Right: {alphagram} is in box {box}, {back}.", vars)
        : t("Not quite: {alphagram} goes to box 0, {back}.", vars) }),
  ];
  if (result.right.length) parts.push(el("p", { text: t("You found:") }), wordList(result.right, "right"));
  if (result.missed.length) parts.push(el("p", { text: t("You missed:") }), wordList(result.missed, "missed"));
  if (result.wrong.length) {
    parts.push(el("p", { text: t("Not words of these letters:") }), wordList(result.wrong, "wrong"));
  }
  box.replaceChildren(...parts);
}

async function check(event) {
  event.preventDefault();
  if (!question || $("quiz-check").disabled) return;
  const words = $("quiz-answer").value.split(/[\s,]+/).filter(Boolean);
  $("quiz-check").disabled = true;
  try {
    const result = await api.answer({ lexicon, alphagram: question.alphagram, words });
    renderVerdict(result);
    renderBox(result.box);
    $("quiz-answer").disabled = true;
    $("quiz-next").disabled = false;
    $("quiz-next").focus();
  } catch (err) {
    $("quiz-error").textContent = describeError(err);
    $("quiz-check").disabled = false;
  }
}

async function startQuiz() {
  try {
    await ensureUser(t("Guest"));
  } catch (err) {
    $("quiz-error").textContent = describeError(err);
    return;
  }
  $("quiz-guest").hidden = !currentUser().guest;
  localStorage.setItem(LENGTH, $("quiz-length").value);
  await nextQuestion();
}

export async function showStudyPage() {
  showPage("study", t("Word study"));
  const meta = await getMeta();
  lexicon = meta.default_lexicon;
  const pick = $("study-lexicon");
  pick.replaceChildren(...meta.lexicons.map((l) => el("option", { value: l, text: l })));
  pick.value = lexicon;
  pick.addEventListener("change", () => {
    lexicon = pick.value;
    if (question) nextQuestion();
  });
  const saved = +localStorage.getItem(LENGTH);
  $("quiz-length").replaceChildren(...LENGTHS.map((n) => el("option", { value: n, text: tn("{n} letter", "{n} letters", n) })));
  $("quiz-length").value = LENGTHS.includes(saved) ? saved : 7;
  $("quiz-length").addEventListener("change", () => {
    localStorage.setItem(LENGTH, $("quiz-length").value);
    if (question) nextQuestion();
  });
  $("lookup-form").addEventListener("submit", lookup);
  $("search-form").addEventListener("submit", search);
  $("quiz-form").addEventListener("submit", check);
  $("quiz-next").addEventListener("click", nextQuestion);
  $("quiz-start").addEventListener("click", startQuiz);
  const me = currentUser();
  if (me) {  // a returning player: their box and the next question at once
    $("quiz-guest").hidden = !me.guest;
    await nextQuestion();
  }
}
