"use client";
// The tab title is "(unread) page · Switchboard"; the room sets the page, the sidebar the count.
let page = "";
let unread = 0;

function render() {
  const base = page ? `${page} · Switchboard` : "Switchboard";
  document.title = unread > 0 ? `(${unread}) ${base}` : base;
}

export const documentTitle = {
  setPage(next: string) {
    page = next;
    render();
  },
  setUnread(next: number) {
    unread = next;
    render();
  },
};
