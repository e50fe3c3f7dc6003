// Draws the explorers of a page (evalmetrics.plotting.explorers): each
// div.evalmetrics-explorer holds its Vega-Lite specification as JSON and the
// options of Vega-Embed, which the website serves itself (_static/explorers/).
// Every number is in the specification's data; nothing is computed here.
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll(".evalmetrics-explorer")) {
    const spec = JSON.parse(box.querySelector('script[type="application/json"]').textContent);
    const options = JSON.parse(box.dataset.embedOptions || "{}");
    const view = box.querySelector(".evalmetrics-explorer-view");
    // On a phone the chart scrolls sideways in its box: reachable by the keyboard too.
    view.tabIndex = 0;
    view.setAttribute("role", "region");
    view.setAttribute("aria-label", "Interactive chart (scrolls sideways on a narrow screen)");
    vegaEmbed(view, spec, options)
      .then(() => { box.dataset.ready = "true"; })
      .catch((error) => { console.error("explorer:", error); });
  }
});
