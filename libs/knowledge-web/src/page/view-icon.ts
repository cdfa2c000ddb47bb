/** The page's icon (three linked nodes), so the browser's favicon request finds something. */
export const VIEW_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<path d="M8 24 16 8 24 24Z" fill="none" stroke="#5b6b82" stroke-width="2"/>
<circle cx="16" cy="8" r="5" fill="#2f7dd1"/><circle cx="8" cy="24" r="5" fill="#e0892b"/><circle cx="24" cy="24" r="5" fill="#2e9b61"/>
</svg>
`;
