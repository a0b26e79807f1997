/** The folder of the built page (index.html, app.js, app.css, favicon.svg, pdf.js worker and data). */
export declare const webRoot: string
/** Whether the page has been built. */
export declare const isBuilt: () => boolean
