// The console works without this script; it adds confirmations to the actions that cannot be undone and
// makes a queue row open its request. Served from the package: the Content-Security-Policy allows no other.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  const question = button?.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("click", (event) => {
  const row = event.target.closest?.("tr[data-href]");
  if (row && !event.target.closest("a, button, input, select, textarea"))
    window.location.href = row.getAttribute("data-href");
});
