// htmx_config.js: htmx's settings, set before htmx starts (it starts when the page is ready; this
// bundle runs before that). Here rather than in a <meta> of every page: bytes of each page.
// Shared state: none. Uses htmx (the bundle's vendored part). Gives nothing.
Object.assign(htmx.config, {
  // Which answers are swapped in: 204 is "nothing new"; 409 and 422 carry the refusal in the
  // region; any other error replaces the page's main part with the error page's.
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "409", swap: true },
    { code: "422", swap: true },
    { code: "[45]..", swap: true, error: true, target: "#main", select: "#main", swapOverride: "outerHTML" }
  ],
  historyCacheSize: 0,
  allowEval: false, // the Content-Security-Policy forbids it too
  includeIndicatorStyles: false, // no inline style (the policy): app.css has them
  attributesToSettle: ["class", "width", "height"],
  timeout: 10000
});
