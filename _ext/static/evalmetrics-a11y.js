// sphinx-togglebutton names every folding button "Toggle hidden content"; a reader of a
// screen reader hears which solution (or block) the button folds instead
// (_ext/evalmetrics_a11y.py).  At "load", after togglebutton.js has made the buttons.
window.addEventListener("load", () => {
  document.querySelectorAll("button.toggle-button").forEach((button) => {
    const title = button.closest(".admonition-title, p");
    const text = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
    if (text) button.setAttribute("aria-label", `Show or hide: ${text}`);
  });
});
