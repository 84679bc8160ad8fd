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

  /** The last 20 items in `list`, newest first, as `render` makes them; nothing yet: left as is. */
  const showLatest = (list, items, render) => {
    if (items.length === 0) return;
    list.replaceChildren(...items.slice(-20).reverse().map(render));
  };

  const visitRow = (visit) => {
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
  };

  const emailItem = (email) => {
    const item = document.createElement('li');
    item.textContent = `${email.received_at} — to ${email.message.to}: ${email.message.subject}`;
    return item;
  };

  const refresh = async () => {
    try {
      const [visits, emails] = await Promise.all([
        fetch('/__stub/visits').then((response) => response.json()),
        fetch('/__stub/emails').then((response) => response.json()),
      ]);
      showLatest(visitRows, visits.visits, visitRow);
      showLatest(emailItems, emails.emails, emailItem);
    } catch {
      // The stub is restarting; the next poll catches up.
    }
  };

  refresh();
  setInterval(refresh, 2000);
})();
