//! Columnar results: named tables of typed columns, and a flat summary.

#[derive(Clone, Debug)]
pub enum Column {
    F64(Vec<f64>),
    U64(Vec<u64>),
    Str(Vec<String>),
}

/// Bit-for-bit equality, so that identical runs compare equal even with NaN (no value) cells.
impl PartialEq for Column {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Column::F64(a), Column::F64(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Column::U64(a), Column::U64(b)) => a == b,
            (Column::Str(a), Column::Str(b)) => a == b,
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Scalar {
    Int(u64),
    Float(f64),
}

impl PartialEq for Scalar {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Scalar::Int(a), Scalar::Int(b)) => a == b,
            (Scalar::Float(a), Scalar::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, Column)>,
}

impl Table {
    pub fn add(&mut self, name: &str, column: Column) -> &mut Self {
        self.columns.push((name.to_string(), column));
        self
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
    }

    pub fn f64s(&self, name: &str) -> &[f64] {
        match self.column(name) {
            Some(Column::F64(v)) => v,
            _ => panic!("no f64 column {name}"),
        }
    }

    pub fn u64s(&self, name: &str) -> &[u64] {
        match self.column(name) {
            Some(Column::U64(v)) => v,
            _ => panic!("no u64 column {name}"),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    pub summary: Vec<(String, Scalar)>,
    pub tables: Vec<(String, Table)>,
}

impl Results {
    pub fn table(&self, name: &str) -> &Table {
        &self.tables.iter().find(|(n, _)| n == name).expect("known table").1
    }

    pub fn scalar(&self, name: &str) -> f64 {
        match self.summary.iter().find(|(n, _)| n == name).map(|(_, s)| s) {
            Some(Scalar::Int(v)) => *v as f64,
            Some(Scalar::Float(v)) => *v,
            None => panic!("no summary value {name}"),
        }
    }
}
