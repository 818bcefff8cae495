// Keeps the deployment status of the Sources on the page live: while any shows "deploying", asks
// /dashboard/sources/status about them every second and writes the answers in (as text only).
"use strict";
/* global document -- runs in the browser */
(function () {
  var INTERVAL_MS = 1000;

  function deployingRows() {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live-status] tr[data-source-id]"), function (row) {
      var cell = row.querySelector("[data-status]");
      return cell && cell.getAttribute("data-status") === "deploying";
    });
  }

  function formatTime(seconds) {
    if (seconds === null || seconds === undefined) return "-";
    return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  }

  function poll() {
    var rows = deployingRows();
    if (rows.length === 0) return;
    var query = rows
      .map(function (row) {
        return "id=" + encodeURIComponent(row.getAttribute("data-source-id"));
      })
      .join("&");
    fetch("/dashboard/sources/status?" + query, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (response) {
        if (!response.ok || (response.headers.get("content-type") || "").indexOf("application/json") !== 0)
          throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (body) {
        body.sources.forEach(function (source) {
          rows.forEach(function (row) {
            if (row.getAttribute("data-source-id") !== source.id) return;
            var cell = row.querySelector("[data-status]");
            cell.setAttribute("data-status", source.status);
            cell.textContent = source.status;
            var date = row.querySelector("[data-date-deployed]");
            if (date) date.textContent = formatTime(source.dateDeployed);
          });
        });
        setTimeout(poll, INTERVAL_MS);
      })
      .catch(function () {
        // Signed out or the server is gone: stop; a reload shows the current state.
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setTimeout(poll, INTERVAL_MS);
  });
})();
