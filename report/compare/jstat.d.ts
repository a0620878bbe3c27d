// The part of jstat 1.9.6 (MIT; it ships no types) that report/compare/stats.ts uses.
declare module 'jstat' {
  const jStat: {
    studentt: { cdf(x: number, dof: number): number; inv(p: number, dof: number): number };
    normal: {
      cdf(x: number, mean: number, std: number): number;
      inv(p: number, mean: number, std: number): number;
    };
  };
  export default jStat;
}
