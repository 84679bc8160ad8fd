// The demo page's live lists: polls the stub's own endpoints and renders with textContent only.
(() => {
  const visitRows = document.getElementById('visit-rows');
  const emailItems = document.getElementById('email-items');
  const ownVisit = document.getElementById('own-visit');

  document.addEventListener('sitebeam:track', (event) => {
    ownVisit.textContent = JSON.stringify(event.detail, null, 2);
  });

  const cell = (text) => {
    const td = document.createElement('td');
    td.textContent = text;
    return td;
  };

  const renderVisits = (visits) => {
    if (visits.length === 0) return;
    visitRows.replaceChildren(
      ...visits
        .slice(-20)
        .reverse()
        .map((visit) => {
          const row = document.createElement('tr');
          row.append(
            cell(visit.time),
            cell(visit.website),
            cell(visit.browser),
            cell(visit.os),
            cell(visit.device),
            cell(visit.infos.country),
            cell(visit.referrer),
          );
          return row;
        }),
    );
  };

  const renderEmails = (emails) => {
    if (emails.length === 0) return;
    emailItems.replaceChildren(
      ...emails
        .slice(-20)
        .reverse()
        .map((email) => {
          const item = document.createElement('li');
          item.textContent = `${email.received_at} — to ${email.message.to}: ${email.message.subject}`;
          return item;
        }),
    );
  };

  const refresh = async () => {
    try {
      const [visits, emails] = await Promise.all([
        fetch('/__stub/visits').then((response) => response.json()),
        fetch('/__stub/emails').then((response) => response.json()),
      ]);
      renderVisits(visits.visits);
      renderEmails(emails.emails);
    } catch {
      // The stub is restarting; the next poll catches up.
    }
  };

  refresh();
  setInterval(refresh, 2000);
})();
