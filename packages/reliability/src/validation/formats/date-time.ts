const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 §5.6 `full-time`: the offset is `Z` or `±hh:mm`, never `±hh` alone. */
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(z)|([+-])(\d{2}):(\d{2}))$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const leap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** An RFC 3339 `full-date`: a real calendar day. */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && leap(year) ? 29 : (DAYS[month] as number));
}

/** An RFC 3339 `full-time` with its offset; a leap second only at 23:59:60 UTC. */
export function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (!match) return false;
  const [, hourText, minuteText, secondText, zulu, sign, offsetHourText, offsetMinuteText] = match;
  const hour = Number(hourText);
  const minute = Number(minuteText);
  const second = Number(secondText);
  const offsetHour = Number(offsetHourText ?? 0);
  const offsetMinute = Number(offsetMinuteText ?? 0);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const direction = zulu !== undefined ? 0 : sign === '-' ? -1 : 1;
  const utcMinutes = (((hour * 60 + minute - direction * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** An RFC 3339 `date-time`: `full-date`, `T`, `full-time`. */
export function isDateTime(value: string): boolean {
  const separator = value.search(/t/i);
  return separator === 10 && isDate(value.slice(0, 10)) && isTime(value.slice(11));
}
