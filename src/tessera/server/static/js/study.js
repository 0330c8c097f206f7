// Word study: look a word up (valid? its anagrams, its hooks), anagram and pattern searches,
// and the anagram quiz over the player's card box, which the server keeps (a guest's too), so
// it follows the player to another device and outlives a restart of the server.
import { api } from "./api.js";
import { $, el, showPage } from "./dom.js";
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
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.round(hours / 24);
  if (days % 7 === 0 && days < 28) return days === 7 ? "1 week" : `${days / 7} weeks`;
  return days === 1 ? "1 day" : `${days} days`;
}

// -- look up ---------------------------------------------------------------------------------

function renderLookup(info) {
  const box = $("lookup-result");
  const verdict = el("p", { className: info.valid ? "ok" : "message", dataset: { valid: info.valid ? "1" : "0" } },
    el("strong", { text: info.word }),
    info.valid ? ` is valid in ${info.lexicon}.` : ` is not a word in ${info.lexicon}.`);
  const rows = [
    ["Anagrams", info.anagrams.length ? info.anagrams.join(" ") : "none", "lookup-anagrams"],
    ["Front hooks", info.front_hooks ? info.front_hooks.split("").join(" ") : "none", "lookup-front"],
    ["Back hooks", info.back_hooks ? info.back_hooks.split("").join(" ") : "none", "lookup-back"],
  ];
  if (info.probability_rank) {
    rows.push(["Probability", `#${info.probability_rank} of the ${info.word.length}-letter alphagrams`, "lookup-rank"]);
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
    const count = found.total === 1 ? "1 word" : `${found.total.toLocaleString()} words`;
    const more = found.total > found.words.length ? ` (the first ${found.words.length} shown)` : "";
    box.replaceChildren(
      el("p", { id: "search-count", text: `${count}${more}.` }),
      wordList(found.words),
    );
  } catch (err) {
    box.replaceChildren(el("p", { className: "message", text: describeError(err) }));
  }
}

// -- the quiz --------------------------------------------------------------------------------

function renderBox(box) {
  const rows = box.boxes.map((count, i) => el("tr", { dataset: { box: i } },
    el("th", { scope: "row", text: i === 0 ? "0 (missed)" : String(i) }),
    el("td", { className: "num", text: count }),
    el("td", { text: i === 0 ? `${box.retry_after} questions` : duration(box.intervals_ms[i]) }),
  ));
  $("quiz-box").tBodies[0].replaceChildren(...rows);
  const summary = $("quiz-box-summary");
  summary.dataset.answers = box.answers;
  summary.dataset.cards = box.cards;
  summary.textContent = `${box.cards} ${box.length}-letter cards, ${box.due} due now; `
    + `${box.answers} answers in all.`;
}

function describeQuestion(q, card, why) {
  const parts = [`#${q.rank} of the ${q.length}-letter alphagrams`,
    q.answers === 1 ? "1 word" : `${q.answers} words`];
  if (why === "new") parts.push("new card");
  else if (card && card.box === 0) parts.push(`missed before: back from box 0`);
  else if (card) parts.push(`from box ${card.box}`);
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
    $("quiz-info").textContent = "No alphagrams of this length.";
    return;
  }
  asked += 1;
  const card = $("quiz-card");
  card.dataset.seq = asked;
  card.dataset.alphagram = question.alphagram;
  card.dataset.why = data.why;
  $("quiz-alphagram").textContent = question.alphagram;
  $("quiz-alphagram").setAttribute("aria-label", `Letters: ${question.alphagram.split("").join(" ")}`);
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
    ? `back after ${result.box.retry_after} other questions`
    : `back in ${duration(result.box.intervals_ms[card.box])}`;
  const parts = [
    el("p", { className: result.correct ? "ok verdict-line" : "message verdict-line",
      text: result.correct ? `Right: ${result.question.alphagram} is in box ${card.box}, ${back}.`
        : `Not quite: ${result.question.alphagram} goes to box 0, ${back}.` }),
  ];
  if (result.right.length) parts.push(el("p", { text: "You found:" }), wordList(result.right, "right"));
  if (result.missed.length) parts.push(el("p", { text: "You missed:" }), wordList(result.missed, "missed"));
  if (result.wrong.length) parts.push(el("p", { text: "Not words of these letters:" }), wordList(result.wrong, "wrong"));
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
    await ensureUser("Guest");
  } catch (err) {
    $("quiz-error").textContent = describeError(err);
    return;
  }
  $("quiz-guest").hidden = !currentUser().guest;
  localStorage.setItem(LENGTH, $("quiz-length").value);
  await nextQuestion();
}

export async function showStudyPage() {
  showPage("study", "Word study");
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
  $("quiz-length").replaceChildren(...LENGTHS.map((n) => el("option", { value: n, text: `${n} letters` })));
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
