/**
 * The status reason as the claim page shows it (pure: no DOM, so the unit tests read it).
 */

/**
 * A status reason without the count it opens with ("1 paper for, 1 against: contradicted ..."): the badge beside it
 * already says the count.
 */
export const reasonAfterCount = (reason: string): string => {
  // the badge gives the count; statements without evidence, which it does not count, stay in the reason
  const rest = reason.replace(
    /^\d+ papers? for, \d+ against(?: \((\d+ statements? without evidence)\))?: /,
    (_m, stated: string | undefined) => (stated === undefined ? "" : `${stated}; `)
  )
  return rest === "" ? reason : rest.charAt(0).toUpperCase() + rest.slice(1)
}
