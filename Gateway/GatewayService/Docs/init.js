// Swagger UI 5.31.0 (vendored from PyPI's swagger-ui-bundle-v2, see docs/api.md "The reference") on the merged document.
// A separate file, not an inline script, so the page's Content-Security-Policy can forbid inline scripts.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  docExpansion: "list",
  defaultModelsExpandDepth: -1,
});
