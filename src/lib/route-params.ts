/** One value of a Next route or query parameter (the first when repeated, '' when missing). */
export function paramOf(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? ''
}
